/**
 * A real Redis for a suite: Debian's redis-server on a free loopback port, without persistence and with
 * the eviction policy BullMQ needs, stopped (and its pid checked gone) after the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface TestRedis {
  url: string;
  port: number;
  /** A plain client for the test's own looks and changes. */
  client: Redis;
  stop(): Promise<void>;
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

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      if (attempt > 50 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}: ${(error as Error).message}`);
      client.disconnect();
      await sleep(100);
    }
  }
  return {
    url,
    port,
    client,
    stop: async () => {
      client.disconnect();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
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
