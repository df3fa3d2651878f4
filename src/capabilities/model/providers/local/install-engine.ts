/**
 * Installs the local engine into its folder (engine-dir.ts) with the user's own npm: node-llama-cpp
 * without its optional dependencies (every platform's binaries), plus the binaries this machine uses
 * (engine-packages.ts). Install scripts are off: node-llama-cpp's would try to build llama.cpp from source
 * where a prebuilt binary does not load, and sopworks never builds it (`build: 'never'`). npm's own
 * settings apply — its registry, its proxy, its certificate authority.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SopworksError } from '../../../../ground/errors.ts';
import { enginePackages, type Gpu, type Machine } from './engine-packages.ts';

export interface InstallOptions {
  /** The npm to run (default: npm on the PATH; npm.cmd on Windows). */
  npm?: string;
  /** Each line npm prints, for progress. */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export async function installEngine(dir: string, machine: Machine, options: InstallOptions = {}): Promise<string[]> {
  const packages = enginePackages(machine);
  await fs.mkdir(dir, { recursive: true });
  const manifest = path.join(dir, 'package.json');
  await fs.writeFile(
    manifest,
    `${JSON.stringify({ name: 'sopworks-local-engine', private: true, description: 'Installed by sopworks (models setup)' }, null, 2)}\n`,
  );
  const args = ['install', '--prefix', dir, '--omit=optional', '--ignore-scripts', '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', ...packages];
  const npm = options.npm ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');
  const { code, output, spawnError } = await run(npm, args, options);
  if (spawnError) {
    throw new SopworksError('NO_MODEL', `Cannot run npm to install the local engine (${spawnError}).`, {
      hint: `npm comes with Node.js: put it on the PATH, or install the engine yourself: npm install --prefix ${dir} ${packages.join(' ')}`,
    });
  }
  if (code !== 0) {
    throw new SopworksError('NO_MODEL', `npm could not install the local engine into ${dir} (exit ${code}):\n${output.slice(-12).join('\n')}`, {
      hint: 'Check your network and npm settings (registry, proxy, cafile: `npm config list`), then run `sopworks models setup` again.',
    });
  }
  return packages;
}

function run(npm: string, args: string[], options: InstallOptions): Promise<{ code: number | null; output: string[]; spawnError: string | null }> {
  return new Promise((resolve) => {
    const output: string[] = [];
    const child = spawn(npm, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    const take = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.trim() !== '')) {
        output.push(line);
        options.onLine?.(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, output, spawnError: error.code ?? error.message }));
    child.on('close', (code) => {
      if (partial.trim() !== '') output.push(partial);
      resolve({ code, output, spawnError: null });
    });
  });
}

/** The install of a first `--llm local` or of `sopworks models setup`: says what and where, then installs. */
export async function setUpEngine(dir: string, gpu: Gpu, report: (line: string) => void, options: InstallOptions = {}): Promise<string[]> {
  const machine: Machine = { platform: process.platform, arch: process.arch, gpu };
  const packages = enginePackages(machine);
  report(`Installing the local engine for ${machine.platform}-${machine.arch}${gpu === 'none' ? ' (CPU)' : ` (${gpu})`} into ${dir}:`);
  report(`  ${packages.join(' ')}`);
  await installEngine(dir, machine, { ...options, onLine: options.onLine ?? ((line) => report(`  npm: ${line}`)) });
  report('Installed the local engine.');
  return packages;
}
