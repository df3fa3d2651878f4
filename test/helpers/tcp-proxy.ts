/**
 * A TCP proxy on loopback that can cut the line: what a client sees when the network between it and its
 * server fails. `cut('silent')` is a partition — connections stay open but nothing gets through either
 * way, and new ones are accepted and then hear nothing (the client notices only by its own timeouts);
 * `cut('reset')` drops every connection and refuses new ones (a server or a firewall saying no).
 * `restore()` ends the cut: connections that lived through a silent cut are closed (what the peer sent
 * meanwhile was lost, so their streams are broken), and new connections are forwarded again.
 */
import net from 'node:net';

export type CutMode = 'silent' | 'reset';

export interface TcpProxy {
  port: number;
  url(scheme: string): string;
  cut(mode: CutMode): void;
  restore(): void;
  /** Whether the line is cut now. */
  cutNow(): CutMode | null;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, listenHost = '127.0.0.1'): Promise<TcpProxy> {
  let cut: CutMode | null = null;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (cut === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    // Data is forwarded only while the line is up; during a silent cut it is dropped on the floor.
    client.on('data', (chunk) => cut === null && upstream.write(chunk));
    upstream.on('data', (chunk) => cut === null && client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  const { port } = server.address() as net.AddressInfo;
  const dropAll = () => {
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    url: (scheme) => `${scheme}://${listenHost}:${port}`,
    cut: (mode) => {
      cut = mode;
      if (mode === 'reset') dropAll();
    },
    restore: () => {
      if (cut === 'silent') dropAll();
      cut = null;
    },
    cutNow: () => cut,
    close: async () => {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
