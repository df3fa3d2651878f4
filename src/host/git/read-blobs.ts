/**
 * Many blobs of a repository in one git process (`git cat-file --batch`): a file per process costs a
 * process and the hardening's config read each (git-process.ts), too slow for the hundreds of test files
 * a large repository has. cat-file applies no filter or driver: the bytes are the blob's.
 */
import { spawn } from 'node:child_process';
import { SopworksError } from '../../ground/errors.ts';
import { gitEnv } from './git-process.ts';

/** The text of each object (`<commit>:<path>` or a blob hash) that exists; a missing one is left out. */
export async function readBlobs(cwd: string, objects: readonly string[]): Promise<Map<string, string>> {
  const bytes = await readBlobBytes(cwd, objects);
  return new Map([...bytes].map(([object, content]) => [object, content.toString('utf8')]));
}

/** The bytes of each object that exists, as `readBlobs` reads them (a binary file stays whole). */
export async function readBlobBytes(cwd: string, objects: readonly string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  if (objects.length === 0) return found;
  const env = await gitEnv(cwd);
  const output = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new SopworksError('GIT_FAILED', `git cat-file --batch failed in ${cwd} (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`)),
    );
    // A name with a line break cannot be asked for on a line: it is left out, as a missing one is.
    child.stdin.end(`${objects.map((o) => (o.includes('\n') ? '' : o)).join('\n')}\n`);
  });
  let at = 0;
  for (const object of objects) {
    const headerEnd = output.indexOf(0x0a, at);
    if (headerEnd < 0) break;
    const header = output.subarray(at, headerEnd).toString('utf8');
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) {
      // "<object> missing", or an object that is no blob (its content is skipped by its size).
      const other = /^[0-9a-f]+ \w+ (\d+)$/.exec(header)?.[1];
      at = headerEnd + 1 + (other === undefined ? 0 : Number(other) + 1);
      continue;
    }
    found.set(object, output.subarray(headerEnd + 1, headerEnd + 1 + Number(size)));
    at = headerEnd + 1 + Number(size) + 1;
  }
  return found;
}
