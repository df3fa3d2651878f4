/**
 * "Machines" on one host, for the queue's suites and the recipe in docs/scaling.md: each is a network
 * namespace joined to a bridge on the host (where Redis listens), and its commands run in their own
 * UTS and PID namespaces — their own host name, their own pid 1 — so a pid written by one means nothing
 * to another. The run folders are shared as they would be on NFS: the same path everywhere.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const ip = (...args: string[]) => exec('ip', args);

export interface Machine {
  name: string;
  /** Its address on the bridge. */
  address: string;
  /** Put before a command to run it on this machine. */
  prefix: string[];
}

export interface Machines {
  /** The host's address on the bridge: where Redis listens for the machines. */
  hostAddress: string;
  machines: Machine[];
  remove(): Promise<void>;
}

/** `count` machines on a fresh bridge 10.231.<n>.0/24 (the host is .1, machine i is .(i+2)). */
export async function makeMachines(names: string[]): Promise<Machines> {
  const tag = randomBytes(3).toString('hex');
  const bridge = `sw${tag}`;
  const subnet = `10.231.${(parseInt(tag.slice(0, 2), 16) % 200) + 20}`;
  const made: string[] = [];
  const remove = async () => {
    for (const ns of made) await ip('netns', 'del', ns).catch(() => undefined);
    await ip('link', 'del', bridge).catch(() => undefined);
  };
  try {
    await ip('link', 'add', 'name', bridge, 'type', 'bridge');
    await ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    const machines: Machine[] = [];
    for (const [i, name] of names.entries()) {
      const ns = `sw${tag}-${i}`;
      const [outside, inside] = [`sw${tag}o${i}`, `sw${tag}i${i}`];
      await ip('netns', 'add', ns);
      made.push(ns);
      await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
      await ip('link', 'set', outside, 'master', bridge);
      await ip('link', 'set', outside, 'up');
      await ip('link', 'set', inside, 'netns', ns);
      const address = `${subnet}.${i + 2}`;
      await ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', inside);
      await ip('-n', ns, 'link', 'set', inside, 'up');
      await ip('-n', ns, 'link', 'set', 'lo', 'up');
      const prefix = [
        'ip',
        'netns',
        'exec',
        ns,
        'unshare',
        '--uts',
        '--pid',
        '--fork',
        '--mount-proc',
        '--kill-child',
        'sh',
        '-c',
        `hostname ${name} && exec "$0" "$@"`,
      ];
      machines.push({ name, address, prefix });
    }
    return { hostAddress: `${subnet}.1`, machines, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The host's pid of the process a machine's command became (the child of `unshare --fork`). */
export function innerPid(unsharePid: number): number | null {
  try {
    const children = fs.readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.length > 0 ? Number(children[0]) : null;
  } catch {
    return null;
  }
}
