/**
 * A real Redis for a suite (or a benchmark): Debian's redis-server on a free port, with the eviction
 * policy BullMQ needs, stopped (and its pid checked gone) afterwards. Without persistence by default;
 * with `appendOnly`, its append-only file lives in `dir` and `restart` brings it back with its data —
 * after a clean shutdown (SIGTERM) or a crash (SIGKILL, losing what was not yet written to the file).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface TestRedis {
  url: string;
  port: number;
  /** A plain client for the test's own looks and changes. */
  client: Redis;
  /** Stops Redis with the signal (SIGTERM: saves and exits; SIGKILL: a crash), waits `downMs`, starts it again on the same port. */
  restart(options?: { signal?: NodeJS.Signals; downMs?: number }): Promise<void>;
  /** How many times Redis was started (1 before any restart). */
  starts(): number;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** Keep an append-only file (fsync every second, Redis' default) in `dir`. */
  appendOnly?: boolean;
  /** The working directory (its data); a temporary one when not given. */
  dir?: string;
  /** Listen on these addresses instead of 127.0.0.1 (a bridge to network namespaces, say); the URL names the first. */
  bind?: string[];
  /** More arguments, after the helper's own (a later setting wins): a deployment file's command, say. */
  extraArgs?: string[];
  /** Require this password (Redis refuses other hosts than loopback without one); the URL carries it. */
  password?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const bind = options.bind ?? ['127.0.0.1'];
  const dir = options.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-redis-')));
  const ownDir = options.dir === undefined;
  const args = [
    '--port',
    String(port),
    '--bind',
    ...bind,
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--maxmemory-policy',
    'noeviction',
    ...(options.password ? ['--requirepass', options.password] : []),
    ...(options.extraArgs ?? []),
  ];
  const url = `redis://${options.password ? `:${options.password}@` : ''}${bind[0]}:${port}`;
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  let child: ChildProcess = spawn('redis-server', args, { stdio: 'ignore' });
  let starts = 1;
  const ready = async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        if (client.status !== 'ready') await client.connect();
        await client.ping();
        return;
      } catch (error) {
        if (attempt > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}: ${(error as Error).message}`);
        client.disconnect();
        await sleep(100);
      }
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  await ready().catch(async (error: unknown) => {
    client.disconnect();
    await kill('SIGKILL');
    throw error;
  });
  return {
    url,
    port,
    client,
    restart: async ({ signal = 'SIGTERM', downMs = 0 } = {}) => {
      client.disconnect();
      await kill(signal);
      await sleep(downMs);
      child = spawn('redis-server', args, { stdio: 'ignore' });
      starts += 1;
      await ready();
    },
    starts: () => starts,
    stop: async () => {
      client.disconnect();
      await kill('SIGTERM');
      if (ownDir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A redis-server with the given arguments (a password, ACL users, TLS) on a free loopback port, ready
 * once it accepts connections; `stop` ends it and waits for its exit.
 */
export async function startRedisWith(args: string[], portArg: '--port' | '--tls-port' = '--port'): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      ...(portArg === '--port' ? ['--port', String(port)] : ['--port', '0', '--tls-port', String(port)]),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      ...args,
    ],
    { stdio: 'ignore' },
  );
  for (let attempt = 0; ; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (attempt > 50 || child.exitCode !== null) throw new Error(`redis-server ${args.join(' ')} did not start on port ${port}`);
    await sleep(100);
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
