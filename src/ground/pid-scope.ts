/**
 * Where a process id means something: this host and its PID namespace. Two containers, two machines,
 * or two `unshare --pid` namespaces on one host each number their processes from 1 — a pid written by
 * one of them says nothing about a process of another, so a lock records its scope beside its pid.
 */
import fs from 'node:fs';
import os from 'node:os';

let scope: string | null = null;

/** `<hostname>/pid:[<namespace inode>]` on Linux; the host name alone elsewhere. */
export function pidScope(): string {
  if (scope !== null) return scope;
  let namespace = '';
  try {
    namespace = `/${fs.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    // No /proc (macOS, Windows): one host is one scope.
  }
  scope = `${os.hostname()}${namespace}`;
  return scope;
}
