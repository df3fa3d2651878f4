/**
 * Where a spec (or a change request) comes from: the text given (the command line's words), a file
 * (`--spec-file`), or standard input (`-` as the only word). Text only: a file that is not UTF-8, holds
 * NUL bytes or is far larger than any spec is refused, saying which — before anything is written.
 */
import fs from 'node:fs/promises';
import { SopworksError } from '../ground/errors.ts';

/** Far above any spec's limit: a file this large is not a spec (a binary, a log, a wrong path). */
const MAX_BYTES = 64 * 1024;

export interface SpecSources {
  /** The text given; `-` stands for standard input. */
  given: string | undefined;
  file?: string | undefined;
  /** Reads standard input whole; none: standard input cannot be read here. */
  readStdin?: (() => Promise<Buffer>) | undefined;
}

/** The spec's text as given, or null when none was given (a scenario may supply it). */
export async function readSpecInput({ given, file, readStdin }: SpecSources, what = 'spec'): Promise<string | null> {
  const fromStdin = given === '-';
  if (file !== undefined && given !== undefined) {
    throw new SopworksError('USAGE', `Both a ${what} on the command line and --spec-file were given.`, {
      hint: `Give the ${what} one way: words, --spec-file <file>, or - to read standard input.`,
    });
  }
  if (file !== undefined) return decode(await readFile(file, what), `the file ${file}`, what);
  if (fromStdin) {
    if (!readStdin)
      throw new SopworksError('USAGE', `The ${what} is \`-\` (standard input), which nothing here can read.`, { hint: `Give the ${what} as text.` });
    return decode(await readStdin(), 'standard input', what);
  }
  return given ?? null;
}

async function readFile(file: string, what: string): Promise<Buffer> {
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    if (stat.size > MAX_BYTES) {
      throw new SopworksError('SPEC_INVALID', `The ${what} file ${file} is ${stat.size} bytes: not a ${what}.`, {
        hint: `Write the ${what} in a few lines of text.`,
      });
    }
    return await fs.readFile(file);
  } catch (error) {
    if (SopworksError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : (code ?? String(error));
    throw new SopworksError('SPEC_INVALID', `Cannot read the ${what} file ${file}: ${why}.`, {
      hint: `Give the path of a text file holding the ${what}, e.g. --spec-file spec.txt`,
    });
  }
}

function decode(bytes: Buffer, source: string, what: string): string {
  if (bytes.length > MAX_BYTES)
    throw new SopworksError('SPEC_INVALID', `${source} holds ${bytes.length} bytes: not a ${what}.`, { hint: `Give the ${what} in a few lines of text.` });
  if (bytes.includes(0)) throw new SopworksError('SPEC_INVALID', `${source} is not text (it holds NUL bytes).`, { hint: `Give the ${what} as UTF-8 text.` });
  try {
    // A byte-order mark some editors write is not part of the spec.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new SopworksError('SPEC_INVALID', `${source} is not UTF-8 text.`, { hint: `Save the ${what} as UTF-8.` });
  }
}

/** The most characters of a spec: one line is enough (the Product Manager writes the details into the PRD). */
export const MAX_SPEC = 4000;

/** The spec a run is made from, refused when blank or too long; `command` is the one the hint shows. */
export function checkSpec(spec: string, command: 'run' | 'submit'): string {
  if (spec === '') {
    throw new SopworksError('SPEC_INVALID', 'The spec is empty.', {
      hint: `Say what to build in one line: sopworks ${command} "a CLI that counts word frequencies in text files"`,
    });
  }
  if (spec.length > MAX_SPEC) {
    throw new SopworksError('SPEC_INVALID', `The spec is ${spec.length} characters long; the limit is ${MAX_SPEC}.`, {
      hint: 'A one-line spec is enough: the Product Manager writes the details into the PRD.',
    });
  }
  return spec;
}
