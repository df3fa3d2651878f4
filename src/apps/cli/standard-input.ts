/** Standard input read whole, for a spec or a change request given as `-`; a terminal is told how to end it. */
export async function readAllStdin(): Promise<Buffer> {
  if (process.stdin.isTTY) process.stderr.write('Reading standard input; end it with Ctrl-D.\n');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    // Far above any spec's limit (src/session/spec-input.ts): the rest is not read.
    if (size > 64 * 1024) break;
  }
  return Buffer.concat(chunks);
}
