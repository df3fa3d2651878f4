/**
 * For the job queue's suites: real `sopworks worker` processes (here, or inside namespaces standing for
 * other machines) whose lines a test waits on, a run's facts (tree, commit subjects, board), and each
 * scenario's single-process reference run — made once per test process and shared by the suites.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { sopworks } from './in-process.ts';
import { BIN, ROOT } from './paths.ts';
import { cleanEnv } from './run-cli.ts';
import { TESTS_TEMP_ROOT, tempDir } from './temp-dir.ts';

const exec = promisify(execFile);
export const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();
export const scenario = (name: string) => path.join(ROOT, 'examples', 'eval', `${name}.yaml`);
/** Slow enough that a kill lands in the middle of runs; each run makes 11 calls. */
export const LATENCY_MS = '150';
/** The secret every submitter and worker of these suites shares (jobs are signed: job-signature.ts). */
export const TEST_QUEUE_SECRET = 'queue-workers-test-secret-0123456789abcdef';

export interface RunFacts {
  tree: string;
  subjects: string[];
  boardIds: string[];
}

export async function facts(project: string): Promise<RunFacts> {
  const { records } = await readAppendLog(path.join(project, '.sopworks', 'board.jsonl'));
  return {
    tree: await git(project, 'rev-parse', 'HEAD^{tree}'),
    subjects: (await git(project, 'log', '--reverse', '--format=%s')).split('\n'),
    boardIds: (records as { id: string }[]).map((m) => m.id),
  };
}

const references = new Map<string, Promise<RunFacts>>();

/**
 * The scenario run once by `sopworks run` (in this process), uninterrupted: what every queued run of it
 * must equal. On a "machine" (machines.ts), run there: what a sandbox can bound differs by machine and shows in the test
 * reports (a PID namespace without a pids cgroup, say).
 */
export function referenceFacts(name: string, on?: { name: string; prefix: string[] }): Promise<RunFacts> {
  const key = `${on?.name ?? 'here'}/${name}`;
  let reference = references.get(key);
  if (!reference) {
    reference = (async () => {
      const out = await tempDir();
      const result = on
        ? await runOn(on.prefix, ['run', '--llm', `scripted:${scenario(name)}`, '--out', out])
        : await sopworks(['run', '--llm', `scripted:${scenario(name)}`, '--out', out], { cwd: out });
      if (result.code !== 0) throw new Error(`the reference run of ${name} failed:\n${result.stdout}${result.stderr}`);
      return facts(path.join(out, name));
    })();
    references.set(key, reference);
  }
  return reference;
}

async function runOn(prefix: string[], args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [program, ...rest] = [...prefix, process.execPath, BIN, ...args];
  return exec(program!, rest, { cwd: ROOT, env: cleanEnv() }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code ?? 1, stdout: error.stdout, stderr: error.stderr }),
  );
}

export interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Resolves at the first line matching the pattern. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/**
 * `sopworks worker --lock-ms 2000 …` (a short lock: a dead worker's runs are taken over soon), or the same
 * command behind `prefix` (ip netns exec …, unshare …); `plain`: exactly `sopworks worker <args>`. Its runs
 * may go anywhere under the tests' temp folder (TESTS_TEMP_ROOT, where tempDir makes them) unless `args` say where.
 */
export function startWorker(
  redisUrl: string,
  args: string[] = [],
  options: { prefix?: string[]; env?: Record<string, string>; plain?: boolean } = {},
): WorkerProcess {
  const env = cleanEnv({ SOPWORKS_REDIS_URL: redisUrl, SOPWORKS_SCRIPTED_LATENCY_MS: LATENCY_MS, SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET, ...options.env });
  const runsRoot = args.includes('--runs-root') ? [] : ['--runs-root', TESTS_TEMP_ROOT];
  const command = [process.execPath, BIN, 'worker', ...(options.plain ? [] : ['--lock-ms', '2000']), ...runsRoot, ...args];
  const [program, ...rest] = [...(options.prefix ?? []), ...command];
  const child = spawn(program!, rest, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = '';
  const take = (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) => {
      const seen = lines.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<string>((resolve) => waiters.push({ pattern, resolve })),
        sleep(timeoutMs).then(() => {
          throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`);
        }),
      ]);
    },
  };
}

export async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await worker.exited;
}

/** `what` may end with what to show when it times out (the workers' lines). */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 120_000, show: () => string = () => ''): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}\n${show()}`);
    await sleep(250);
  }
}

/** `sopworks submit` of a scenario, in this process (test/helpers/in-process.ts): nothing of it is about a process. */
export const submit = (redisUrl: string, name: string, out: string, env: Record<string, string> = {}) =>
  sopworks(['submit', '--llm', `scripted:${scenario(name)}`, '--out', out], {
    cwd: ROOT,
    env: { SOPWORKS_REDIS_URL: redisUrl, SOPWORKS_QUEUE_SECRET: TEST_QUEUE_SECRET, ...env },
  });
