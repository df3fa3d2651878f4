/**
 * Reads a run's output for signs of what the sandbox stopped: refused writes and reads, hidden paths,
 * refused connections and child processes (violations), and which limits were hit. Pure. These are
 * signs seen in the output, not a syscall audit: code that swallows an error and prints nothing leaves
 * no sign (its action was still blocked).
 */
import path from 'node:path';
import { inside } from './path-inside.ts';
import type { LimitKind, SandboxMode, Violation } from './sandbox-report.ts';

export interface EvidenceContext {
  mode: SandboxMode;
  /** The project on the host, and where the sandbox sees it (the same path outside bubblewrap). */
  projectDir: string;
  sandboxProjectDir: string;
  /** The run's private temp folder on the host (null under bubblewrap, whose /tmp is its own). */
  tmpDir: string | null;
  /** Whether a path exists on the host: a path the sandbox could not find but the host has was hidden. */
  existsOnHost: (file: string) => boolean;
}

const MAX_VIOLATIONS = 20;

export function violationsInOutput(output: string, context: EvidenceContext): Violation[] {
  const found: Violation[] = [];
  const add = (kind: Violation['kind'], detail: string) => found.push({ kind, detail: normalise(detail, context) });

  for (const denial of permissionDenials(output)) add(denial.kind, denial.detail);
  for (const file of pathsOf(output, [
    /EROFS: read-only file system, \w+ '([^']+)'/g,
    /\[Errno 30\] Read-only file system: '([^']+)'/g,
    /cannot create ([^:\n]+): Read-only file system/g,
  ])) {
    add('filesystem', `write refused (read-only): ${file}`);
  }
  for (const file of pathsOf(output, [/EACCES: permission denied, \w+ '([^']+)'/g, /\[Errno 13\] Permission denied: '([^']+)'/g])) {
    if (!inside(file, context.sandboxProjectDir)) add('filesystem', `permission denied: ${file}`);
  }
  if (context.mode === 'bubblewrap') {
    // A rename out of a read-only bind (.git/, .sopworks/) crosses mounts.
    for (const file of pathsOf(output, [/EXDEV: cross-device link not permitted, rename '([^']+)'/g]))
      add('filesystem', `write refused (read-only mount): ${file}`);
    for (const file of pathsOf(output, [/ENOENT: no such file or directory, \w+ '([^']+)'/g, /\[Errno 2\] No such file or directory: '([^']+)'/g])) {
      if (hiddenFromSandbox(file, context)) add('filesystem', `hidden from the sandbox: ${file}`);
    }
    for (const m of output.matchAll(/\b(ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EAI_AGAIN) ([^\s'",)]+)/g)) {
      add('network', `${m[1] === 'EAI_AGAIN' ? 'name lookup failed' : 'connection refused'}: ${m[2]} (${m[1]})`);
    }
    if (/\[Errno 111\] Connection refused/.test(output)) add('network', 'connection refused (Errno 111)');
    if (/\[Errno 101\] Network is unreachable/.test(output)) add('network', 'network unreachable (Errno 101)');
    if (/Temporary failure in name resolution|Could not resolve host/.test(output)) add('network', 'name lookup failed');
  }
  return dedupe(found).slice(0, MAX_VIOLATIONS);
}

/** Limits whose signs are in the output (the runner adds those it knows first-hand: time, cgroup, signal). */
export function limitsInOutput(output: string): LimitKind[] {
  const hit: LimitKind[] = [];
  if (
    /JavaScript heap out of memory|allocation failed|std::bad_alloc|FatalProcessOutOfMemory|ERR_MEMORY_ALLOCATION_FAILED|\bMemoryError\b|Cannot allocate memory|\bENOMEM\b|out of memory/i.test(
      output,
    )
  )
    hit.push('memory');
  if (/SIGXCPU|CPU time limit exceeded/.test(output)) hit.push('cpu');
  if (/SIGXFSZ|File size limit exceeded|\bEFBIG\b|File too large|\bENOSPC\b|No space left on device/.test(output)) hit.push('disk');
  if (
    /\bspawn(?:Sync)?(?: \S+)? EAGAIN\b|fork(?:\(\))?: (?:retry: )?Resource temporarily unavailable|Cannot fork|can't fork|BlockingIOError: \[Errno 11\] Resource temporarily unavailable/i.test(
      output,
    )
  ) {
    hit.push('processes');
  }
  return hit;
}

/**
 * Node's permission model refusals. Printed errors carry "permission: 'FileSystemWrite', resource: '/x'";
 * the test runner's TAP report only the code and a stack, whose first frame names the refused call.
 */
function permissionDenials(output: string): { kind: Violation['kind']; detail: string }[] {
  const denials: { kind: Violation['kind']; detail: string }[] = [];
  const codes = [...output.matchAll(/ERR_ACCESS_DENIED/g)].map((m) => m.index);
  codes.forEach((at, i) => {
    const window = output.slice(at, Math.min(codes[i + 1] ?? output.length, at + 800));
    const detailed = /permission: '(\w+)'(?:,\s*resource: '([^']*)')?/.exec(window);
    if (detailed) {
      const [, permission, resource] = detailed;
      if (permission === 'FileSystemWrite') denials.push({ kind: 'filesystem', detail: `write refused: ${resource ?? '(a path)'}` });
      else if (permission === 'FileSystemRead') denials.push({ kind: 'filesystem', detail: `read refused: ${resource ?? '(a path)'}` });
      else if (permission === 'ChildProcess') denials.push({ kind: 'process', detail: 'child process refused' });
      else if (permission === 'WorkerThreads') denials.push({ kind: 'process', detail: 'worker thread refused' });
      else denials.push({ kind: 'process', detail: `${permission} refused` });
      return;
    }
    // Stack frames: "    at Object.writeFileSync (node:fs:2380:20)" (printed) or without "at " (TAP).
    const call = /^\s+(?:at )?(?:[\w<>]+\.)?(\w+) \(node:/m.exec(window)?.[1];
    const where = /^\s+(?:at )?.*?\((?:file:\/\/)?(\/[^)]+)\)$/m.exec(window.replace(/^\s+.*\(node:[^)]*\)$/gm, ''))?.[1];
    if (!call) {
      denials.push({ kind: 'filesystem', detail: 'access refused by the permission model (ERR_ACCESS_DENIED)' });
    } else {
      const kind = /spawn|exec|fork|Worker/i.test(call) ? 'process' : 'filesystem';
      denials.push({ kind, detail: `${call} refused by the permission model${where ? ` at ${where}` : ''}` });
    }
  });
  return denials;
}

function pathsOf(output: string, patterns: RegExp[]): string[] {
  return patterns.flatMap((re) => [...output.matchAll(re)].map((m) => m[1]!.trim()));
}

/** An absolute path outside the project and HOME that the host has (or whose folder it has). */
function hiddenFromSandbox(file: string, context: EvidenceContext): boolean {
  if (!path.isAbsolute(file) || inside(file, context.sandboxProjectDir)) return false;
  const folder = path.dirname(file);
  return context.existsOnHost(file) || (folder !== '/' && context.existsOnHost(folder));
}

function normalise(detail: string, context: EvidenceContext): string {
  let text = detail;
  for (const [from, to] of [
    [context.projectDir, '<project>'],
    [context.sandboxProjectDir, '<project>'],
    [context.tmpDir, '<tmp>'],
  ] as const) {
    if (from) text = text.split(from).join(to);
  }
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.kind}\n${v.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
