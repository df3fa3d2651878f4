/**
 * node-llama-cpp is not a dependency of the package: most users talk to a server and need none of its
 * native binaries. It is imported only when `--llm local` is chosen, from where it is found first:
 * - beside sopworks (a clone has it as a dev dependency; a user may `npm install` it there);
 * - the engine folder (engine-dir.ts), where `sopworks models setup` — or this first use — installs it
 *   for this machine's platform and GPU only (install-engine.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import { SopworksError } from '../../../../ground/errors.ts';
import { ENGINE_PACKAGE, ENGINE_VERSION } from './engine-packages.ts';

export { ENGINE_PACKAGE } from './engine-packages.ts';

export type Engine = typeof NodeLlamaCpp;

export interface EngineSources {
  /** The package as this process resolves it. */
  beside?: () => Promise<Engine>;
  /** The engine folder. */
  dir?: string;
  /** Installs the engine into `dir` when it is found nowhere; null: never install (say how instead). */
  install?: ((dir: string) => Promise<void>) | null;
}

export async function loadEngine(sources: EngineSources = {}): Promise<Engine> {
  const { beside = () => import('node-llama-cpp'), dir = null, install = null } = sources;
  try {
    return await beside();
  } catch (error) {
    if (!isMissing(error)) throw engineBroken(error);
  }
  if (dir && !installedIn(dir) && install) await install(dir);
  if (dir && installedIn(dir)) {
    try {
      return (await import(pathToFileURL(createRequire(path.join(dir, 'package.json')).resolve('node-llama-cpp')).href)) as Engine;
    } catch (error) {
      throw engineBroken(error, dir);
    }
  }
  throw new SopworksError('NO_MODEL', '--llm local needs the local engine (node-llama-cpp), which is not installed.', {
    hint: `Install it for this machine: sopworks models setup${dir ? ` (into ${dir})` : ''}`,
  });
}

/** True when `dir` holds the engine version this sopworks is written for. */
export function installedIn(dir: string): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'node-llama-cpp', 'package.json'), 'utf8')) as { version?: unknown };
    return manifest.version === ENGINE_VERSION;
  } catch {
    return false;
  }
}

/** node-llama-cpp itself is not found — not one of its own imports, which would mean a broken install. */
const isMissing = (error: unknown): boolean => {
  const code = (error as { code?: string }).code;
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error)?.message))?.[1] ?? '';
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && name.startsWith('node-llama-cpp');
};

/** The error for an engine that is there but cannot be loaded. */
export function engineBroken(error: unknown, dir?: string): SopworksError {
  return new SopworksError('NO_MODEL', `--llm local could not load node-llama-cpp: ${(error as Error)?.message?.split('\n')[0] ?? String(error)}`, {
    hint: dir ? `Install it again: sopworks models setup --force (into ${dir})` : `Reinstall it: npm install ${ENGINE_PACKAGE}`,
    cause: error,
  });
}
