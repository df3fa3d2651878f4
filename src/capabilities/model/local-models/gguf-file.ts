/**
 * A first check of a model file, before the engine sees it: it exists, is a file, and starts with the
 * GGUF magic. The engine's own reader checks the rest (a truncated or corrupt file) when it loads.
 */
import fs from 'node:fs/promises';
import { SopworksError } from '../../../ground/errors.ts';

const MAGIC = Buffer.from('GGUF', 'ascii');

export async function checkGgufFile(file: string): Promise<{ bytes: number }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SopworksError('NO_MODEL', `The model file ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}.`, {
      hint: 'Give the path of a .gguf file (--llm local:<path.gguf>), or pull one: sopworks models pull qwen2.5-coder-7b',
    });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new SopworksError('NO_MODEL', `The model path ${file} is not a file.`, { hint: 'Give the path of a .gguf file.' });
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead < 4 || !head.equals(MAGIC)) {
      throw new SopworksError('NO_MODEL', `${file} is not a GGUF model file (it does not start with "GGUF").`, {
        hint: 'llama.cpp loads GGUF files only; download the .gguf version of the model (sopworks models pull <url of a .gguf>).',
      });
    }
    return { bytes: stat.size };
  } finally {
    await handle.close();
  }
}
