/**
 * The runs the viewer starts: a resume after a decision or on Continue, and a change with a request
 * typed on the page — each a typed session request (src/session/: ResumeAsk, ChangeAsk), checked here,
 * then run as `sopworks resume|change --json …`, a child process made of that request by the session's
 * own flags (commandLineOf). A process of its own, so a run — its model, its memory, a crash — never
 * takes the viewer down (docs/decisions/2026-11-27-the-workbench-runs-the-cli.md), and the run is exactly
 * the CLI's (its lock, its checks, its record); its JSON lines tell the page how it goes. One launch at a
 * time per run. Each child has its own process group: a Ctrl-C at the viewer's terminal does not reach
 * it twice; closing the viewer interrupts it once (outcome `interrupted`, which `resume` continues).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { SopworksError } from '../../../ground/errors.ts';
import { type ChangeAsk, commandLineOf, type ResumeAsk } from '../../../session/index.ts';
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

/** A request refused before any process started: an ended launch that says why. */
function refused(command: LaunchCommand, from: string, error: unknown): LaunchView {
  const known = SopworksError.isInstance(error);
  return {
    command,
    from,
    projectDir: null,
    startedAt: new Date().toISOString(),
    state: 'ended',
    exitCode: 2,
    outcome: null,
    reason: null,
    error: { message: known ? error.message : String(error), hint: known ? (error.hint ?? null) : null },
    progress: [],
  };
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

  /** Continues the run in `ask.project`. */
  resume(ask: ResumeAsk): Promise<LaunchView> {
    return this.start('resume', ask.project, () => commandLineOf({ command: 'resume', ask }), null);
  }

  /** Changes the run in `ask.repo` with `request`, handed on standard input. */
  change(ask: Omit<ChangeAsk, 'request'>, request: string): Promise<LaunchView> {
    return this.start('change', ask.repo, () => commandLineOf({ command: 'change', ask: { ...ask, request: '-' } }), request);
  }

  /**
   * Starts `sopworks <the request's command line> --json`; resolves once the run has started (its first
   * line) or the process has ended (refused, say), with what the page shows of it. A request the session
   * refuses ends at once, saying why, as the CLI would.
   */
  private start(command: LaunchCommand, from: string, argsOf: () => string[], stdin: string | null): Promise<LaunchView> {
    let args: string[];
    try {
      args = argsOf();
    } catch (error) {
      return Promise.resolve(refused(command, from, error));
    }
    const [program, ...prefix] = this.settings.command;
    const child = spawn(program!, [...prefix, args[0]!, '--json', ...args.slice(1)], {
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
