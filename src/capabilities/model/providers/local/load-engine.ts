/**
 * node-llama-cpp is an optional dependency: most users talk to a server and need none of its 40 MB of
 * native binaries. It is imported only when `--llm local` is chosen; when it is missing, the error says
 * the one command that installs it.
 */
import { SopworksError } from '../../../../ground/errors.ts';

/** The version package.json pins (its prebuilt binaries install from the npm registry, no build). */
export const ENGINE_PACKAGE = 'node-llama-cpp@3.21.1';

export type Engine = typeof import('node-llama-cpp');

export async function loadEngine(importer: () => Promise<Engine> = () => import('node-llama-cpp')): Promise<Engine> {
  try {
    return await importer();
  } catch (error) {
    throw engineMissing(error);
  }
}

/** The error for an engine that cannot be imported: missing (say how to install it) or broken. */
export function engineMissing(error: unknown): SopworksError {
  const code = (error as { code?: string }).code;
  const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  return new SopworksError(
    'NO_MODEL',
    missing
      ? '--llm local needs node-llama-cpp, which is not installed (it is an optional dependency).'
      : `--llm local could not load node-llama-cpp: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`,
    { hint: `Install it: npm install ${ENGINE_PACKAGE}`, cause: error },
  );
}
