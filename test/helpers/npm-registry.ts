/**
 * A real npm registry on this machine for the tests: verdaccio, started as a child process on a free
 * loopback port, storage in a temp folder, no uplinks (nothing it does not hold is fetched from the
 * internet: an unknown package is a 404). Packages are published into it with the real `npm publish`.
 * One registry serves a whole suite: start it in `before`, stop it in `after`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './paths.ts';
import { tempDir } from './temp-dir.ts';

const exec = promisify(execFile);

export interface NpmRegistry {
  url: string;
  /** Publishes a package folder (or a tarball) into the registry. */
  publish(packageDirOrTarball: string): Promise<void>;
  /** Writes a tiny package from its files and publishes it. */
  publishFiles(files: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startNpmRegistry(): Promise<NpmRegistry> {
  const dir = await tempDir('sopworks-verdaccio-');
  const port = await freePort();
  const config = [
    `storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $all',
    '    unpublish: $all',
    'log: { type: stdout, format: json, level: error }',
    'max_body_size: 100mb',
    'web: { enable: false }',
    '',
  ].join('\n');
  const configFile = path.join(dir, 'config.yaml');
  await fs.writeFile(configFile, config);
  const child = spawn(process.execPath, [path.join(ROOT, 'test', 'helpers', 'verdaccio-server.mjs'), configFile, String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(`${url}-/ping`, child, () => log);
  // A user config of its own: the publishing side needs a token line; the registry lets anyone publish.
  const npmrc = path.join(dir, 'npmrc');
  await fs.writeFile(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=test-only\n`);
  const npmEnv = { ...process.env, npm_config_userconfig: npmrc, npm_config_globalconfig: '/dev/null', npm_config_update_notifier: 'false' };

  const publish = async (target: string) => {
    await exec('npm', ['publish', target, '--registry', url, '--ignore-scripts', '--no-provenance'], { env: npmEnv, cwd: dir, timeout: 60_000 });
  };
  return {
    url,
    publish,
    async publishFiles(files) {
      const pkg = await fs.mkdtemp(path.join(dir, 'pkg-'));
      for (const [name, content] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(pkg, name)), { recursive: true });
        await fs.writeFile(path.join(pkg, name), content);
      }
      await publish(pkg);
    },
    stop: () => stopChild(child),
  };
}

/** Packs an installed package from a node_modules folder (the real tarball's contents). */
export async function packInstalled(packageDir: string, into: string): Promise<string> {
  const { stdout } = await exec('npm', ['pack', packageDir, '--pack-destination', into, '--ignore-scripts', '--json'], { timeout: 60_000 });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return path.join(into, packed!.filename);
}

async function waitForHttp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the registry exited (${child.exitCode}): ${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stopChild(child);
  throw new Error(`the registry did not answer at ${url} within 60 s: ${log()}`);
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}
