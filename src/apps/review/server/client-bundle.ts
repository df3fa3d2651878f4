/**
 * The viewer's script: the TypeScript modules of web/client/ bundled by esbuild into one ES module.
 * The package ships it built (scripts/build.mjs calls `bundleClient` at `npm pack`); a clone, which
 * runs from src/ with no build step, has it bundled here on the first request (esbuild is a dev
 * dependency, there).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { describeError, SopworksError } from '../../../ground/errors.ts';

/** The client's entry module, in a clone. */
export const CLIENT_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'client', 'main.ts');

export async function bundleClient(entry: string = CLIENT_ENTRY): Promise<string> {
  let esbuild: typeof Esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (error) {
    throw new SopworksError(
      'INSTALL_INCOMPLETE',
      `The viewer's script is not built, and esbuild, which builds it, cannot be loaded (${describeError(error)}).`,
      {
        hint: 'In a clone: npm install. An installed sopworks ships it built: reinstall it.',
      },
    );
  }
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new SopworksError('INSTALL_INCOMPLETE', `esbuild produced nothing from ${entry}.`, { hint: 'Report this as a bug.' });
  return output.text;
}
