/**
 * One `git fast-import` process for the life of a run, fed a batch of commits at a time. Each batch
 * ends with a `checkpoint` — git writes the objects and moves the branch — and a `progress` line that
 * git prints once the checkpoint is done, so a batch resolves when its commits are durable in the
 * repository. No process is started per commit: a child process costs the run's main thread several
 * milliseconds to start (measured: about 2–7 ms here, more the bigger the process), and a run makes
 * one commit per artifact.
 *
 * Crash-safe: the stream is started with `--done`, so if sopworks dies mid-batch, git sees a stream
 * cut short and moves no branch past the last checkpoint — a batch is committed whole or not at all.
 *
 * The process is a shell that runs `git read-tree HEAD` once git fast-import has ended its stream
 * cleanly, so closing the stream also brings the index up to the branch — the end of a run waits for
 * one process to exit instead of starting another.
 *
 * Fenced (ground/files/write-fence.ts): once a queued run's lease is lost, the process group is killed
 * (SIGKILL: git writes nothing more — no branch moved, no index, no crash report), and a close that
 * finds the fence shut kills it instead of ending the stream, which would move the branch and rewrite
 * the index of a repository another worker now owns.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { SopworksError } from '../../ground/errors.ts';
import { assertMayWrite, fenceLost, fenceReason } from '../../ground/files/index.ts';
import { commitCommand, END_OF_STREAM, type StreamCommit } from './fast-import-stream.ts';
import { gitEnv } from './git-process.ts';

interface OutstandingBatch {
  label: string;
  hashes: string[];
  resolve: (hashes: string[]) => void;
  reject: (error: unknown) => void;
}

export class GitImporter {
  private child: ChildProcessWithoutNullStreams | null = null;
  private outstanding: OutstandingBatch | null = null;
  private stderr = '';
  private batches = 0;
  private marks = 0;

  constructor(
    private readonly root: string,
    private readonly ref: string,
  ) {}

  /**
   * Makes `commits` on the branch, the first one on top of `parent` (null: the repository's first
   * commit). `beforeEach` runs before each commit is sent (the kill test's crash point). Resolves with
   * the new commits' hashes, in order, once git has checkpointed them.
   */
  async commit(commits: readonly StreamCommit[], parent: string | null, beforeEach: () => void = () => {}): Promise<string[]> {
    if (this.outstanding) throw new Error('GitImporter: one batch at a time');
    assertMayWrite(this.root);
    // The environment is found before the process starts (the drivers defined where it runs: git-process.ts).
    const env = this.child ? null : await gitEnv(this.root);
    if (this.outstanding) throw new Error('GitImporter: one batch at a time');
    const child = this.child ?? this.process(env!);
    const label = `sopworks-batch-${++this.batches}`;
    const done = new Promise<string[]>((resolve, reject) => (this.outstanding = { label, hashes: [], resolve, reject }));
    this.keepAlive(true);
    try {
      for (const [index, commit] of commits.entries()) {
        beforeEach();
        // `from` on a batch's first commit: git does not read the branch's tip by itself in a new stream.
        await this.write(child, commitCommand(this.ref, ++this.marks, commit, index === 0 ? parent : undefined));
      }
      await this.write(child, `checkpoint\nprogress ${label}\n`);
    } catch (error) {
      this.fail(error);
    }
    return done;
  }

  /**
   * Ends the stream: git moves the branch to the last commit and exits, then the index takes the
   * branch's tree. Resolves true once both are done; false when there was no git running (never
   * started, or stopped by an error its batch reported) — the index is then not brought up to date.
   */
  async close(): Promise<boolean> {
    const child = this.child;
    if (!child) return false;
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    this.keepAlive(true);
    if (fenceReason(this.root) !== null) {
      // Not ours to write any more: git goes without a word, leaving the branch at its last checkpoint.
      this.kill(child);
      await exited;
      return false;
    }
    child.stdin.end(END_OF_STREAM);
    const code = await exited;
    if (code !== 0)
      throw new SopworksError('GIT_FAILED', `git fast-import (or the git read-tree after it) ended with exit ${code} in ${this.root}: ${this.stderr.trim()}`);
    return true;
  }

  private process(env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
    // `&&`: a stream cut short (sopworks killed) makes fast-import fail, and the index is left alone.
    const script = 'git fast-import --quiet --done --date-format=now && exec git read-tree HEAD';
    // A group of its own: git fast-import, the shell's child, is killed with it when the lease is lost.
    const child = spawn('sh', ['-c', script], { cwd: this.root, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    const lost = fenceLost(this.root);
    const onLost = () => this.kill(child);
    lost?.addEventListener('abort', onLost, { once: true });
    child.once('close', () => lost?.removeEventListener('abort', onLost));
    this.stderr = '';
    this.marks = 0;
    this.keepAlive(false);
    child.stdin.on('error', () => undefined); // a git that died: its exit says why
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) this.onLine(line);
    });
    child.on('error', (error) => {
      this.child = null;
      this.fail(
        new SopworksError('GIT_FAILED', `Could not start git through sh (${(error as NodeJS.ErrnoException).code ?? error.message}).`, {
          hint: 'sopworks needs git and sh on the PATH: install git (e.g. apt-get install -y git).',
          cause: error,
        }),
      );
    });
    child.on('close', (code) => {
      if (this.child === child) this.child = null;
      this.fail(
        new SopworksError('GIT_FAILED', `git fast-import stopped (exit ${code ?? 'by signal'}) in ${this.root}: ${this.stderr.trim() || 'no reason given'}`),
      );
    });
    return child;
  }

  /**
   * An idle git is no reason for the run's process to stay alive (a process that ends without `close()`
   * ends the stream without `done`, and git keeps the last checkpoint); a batch or a close under way is.
   */
  private keepAlive(alive: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (alive) handle.ref?.();
      else handle.unref?.();
    }
  }

  /** The shell and git with it, at once: nothing after the last checkpoint is written. */
  private kill(child: ChildProcessWithoutNullStreams): void {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private onLine(line: string): void {
    const batch = this.outstanding;
    if (!batch) return;
    if (/^[0-9a-f]{40,64}$/.test(line)) {
      batch.hashes.push(line);
    } else if (line === `progress ${batch.label}`) {
      this.outstanding = null;
      this.keepAlive(false);
      batch.resolve(batch.hashes);
    }
  }

  private fail(error: unknown): void {
    const batch = this.outstanding;
    this.outstanding = null;
    this.keepAlive(false);
    batch?.reject(error);
  }

  private write(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
    if (child.stdin.write(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        child.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        child.stdin.off('drain', onDrain);
        reject(new SopworksError('GIT_FAILED', `git fast-import stopped in ${this.root}: ${this.stderr.trim() || 'no reason given'}`));
      };
      child.stdin.once('drain', onDrain);
      child.once('close', onClose);
    });
  }
}
