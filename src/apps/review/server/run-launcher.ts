/**
 * The runs the viewer starts: `sopworks resume <run>` after a decision or on Continue, and `sopworks
 * change <run> -` with a request typed on the page — the same commands a person types, run as child
 * processes with `--json`, so the run is exactly the CLI's (its lock, its checks, its record) and the
 * page can say how it goes. One launch at a time per run. Each child has its own process group: a
 * Ctrl-C at the viewer's terminal does not reach it twice; closing the viewer interrupts it once
 * (outcome `interrupted`, which `resume` continues).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { type LaunchLine, parseLaunchLine, progressText } from './launch-lines.ts';

export type LaunchCommand = 'resume' | 'change';

/** A launch as the page shows it. */
export interface LaunchView {
  command: LaunchCommand;
  /** The run it was started from. */
  from: string;
  /** The run it works on, once it has said so (a change makes a new run). */
  projectDir: string | null;
  startedAt: string;
  state: 'starting' | 'running' | 'ended';
  exitCode: number | null;
  outcome: string | null;
  reason: string | null;
  /** Why it could not start or went wrong: the CLI's own error, with its hint. */
  error: { message: string; hint: string | null } | null;
  /** The last progress lines, oldest first. */
  progress: string[];
}

export interface LauncherSettings {
  /** The command line that runs sopworks, e.g. [node, <package>/bin/sopworks.js]. */
  command: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const PROGRESS_LINES = 40;
const STDERR_LINES = 20;
/** How long closing the viewer waits for a run it started to stop after its interrupt. */
const STOP_GRACE_MS = 60_000;

/** Signals a child's process group (the run and what it started, as a terminal's Ctrl-C would); gone already is fine. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // The group has ended.
  }
}

interface Live {
  view: LaunchView;
  child: ChildProcess;
  exited: Promise<void>;
}

export class RunLauncher {
  /** The latest launch by run folder: the run it started from and, once known, the run it works on. */
  private readonly launches = new Map<string, Live>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly settings: LauncherSettings) {}

  /** The latest launch that concerns a run folder. */
  viewOf(dir: string): LaunchView | null {
    return this.launches.get(dir)?.view ?? null;
  }

  /** Whether a launch is at work on (or from) a run folder. */
  busy(dir: string): boolean {
    const live = this.launches.get(dir);
    return live !== undefined && live.view.state !== 'ended';
  }

  /** How many launches are still at work. */
  active(): number {
    return [...new Set(this.launches.values())].filter((l) => l.view.state !== 'ended').length;
  }

  /** Calls `listener` whenever a launch concerning `dir` changes; returns the unsubscribe. */
  subscribe(dir: string, listener: () => void): () => void {
    const set = this.listeners.get(dir) ?? this.listeners.set(dir, new Set()).get(dir)!;
    set.add(listener);
    return () => set.delete(listener);
  }

  private changed(live: Live): void {
    const dirs = new Set([live.view.from, live.view.projectDir].filter((d): d is string => d !== null));
    for (const dir of dirs) for (const listener of this.listeners.get(dir) ?? []) listener();
  }

  /**
   * Starts `sopworks <command> <from> <args…> --json`; resolves once the run has started (its first
   * line) or the process has ended (refused, say), with what the page shows of it.
   */
  start(command: LaunchCommand, from: string, args: readonly string[], stdin: string | null = null): Promise<LaunchView> {
    const [program, ...prefix] = this.settings.command;
    const child = spawn(program!, [...prefix, command, from, ...args, '--json'], {
      cwd: this.settings.cwd,
      env: { ...this.settings.env, NO_COLOR: '1' },
      stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin?.end(stdin);
    const view: LaunchView = {
      command,
      from,
      projectDir: null,
      startedAt: new Date().toISOString(),
      state: 'starting',
      exitCode: null,
      outcome: null,
      reason: null,
      error: null,
      progress: [],
    };
    let started: () => void = () => {};
    const ready = new Promise<void>((resolve) => (started = resolve));
    const live: Live = { view, child, exited: this.follow(view, child, started) };
    this.launches.set(from, live);
    this.changed(live);
    return ready.then(() => ({ ...view, progress: [...view.progress] }));
  }

  /** Reads the child's lines into its view until it exits; `started` is called at its first sign of life or its end. */
  private follow(view: LaunchView, child: ChildProcess, started: () => void): Promise<void> {
    const live = () => this.launches.get(view.from)!;
    const stderr: string[] = [];
    readline.createInterface({ input: child.stderr! }).on('line', (text) => {
      stderr.push(text);
      if (stderr.length > STDERR_LINES) stderr.shift();
    });
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = parseLaunchLine(text);
      if (!line) return;
      this.take(view, line);
      if (line.type === 'start') started();
      this.changed(live());
    });
    return new Promise<void>((resolve) => {
      child.on('error', (error) => {
        view.error ??= { message: `sopworks could not be started: ${error.message}`, hint: 'Check that sopworks is installed where the viewer runs.' };
      });
      child.on('close', (code, signal) => {
        view.state = 'ended';
        view.exitCode = code ?? (signal ? 128 : null);
        if (view.exitCode !== 0 && view.outcome === null && view.error === null) {
          view.error = { message: `sopworks ${view.command} ended (${signal ?? `exit ${code}`}) without saying why.`, hint: stderr.join('\n') || null };
        }
        started();
        this.changed(live());
        resolve();
      });
    });
  }

  private take(view: LaunchView, line: LaunchLine): void {
    if (line.type === 'start') {
      view.state = 'running';
      view.projectDir = path.resolve(line.projectDir);
      if (view.projectDir !== view.from) this.launches.set(view.projectDir, this.launches.get(view.from)!);
    } else if (line.type === 'summary') {
      view.outcome = line.outcome;
      view.reason = line.reason;
    } else if (line.type === 'error') {
      view.error = { message: line.message, hint: line.hint };
    }
    const text = progressText(line);
    if (text !== null) {
      view.progress.push(text);
      if (view.progress.length > PROGRESS_LINES) view.progress.shift();
    }
  }

  /** Interrupts every run still at work (once: its steps in flight finish) and waits for each to stop. */
  async close(): Promise<void> {
    const running = [...new Set(this.launches.values())].filter((l) => l.view.state !== 'ended');
    for (const { child } of running) signalGroup(child, 'SIGINT');
    await Promise.all(
      running.map(({ child, exited }) => {
        const force = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
        return exited.finally(() => clearTimeout(force));
      }),
    );
  }
}
