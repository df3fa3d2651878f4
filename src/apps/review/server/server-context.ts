/** What every route of the viewer is handed: the runs it serves, how they are read and watched, and its guard. */
import type http from 'node:http';
import type { LoadedRun } from '../load-run.ts';
import type { RunPage } from '../run-page.ts';
import type { EventStreams } from './event-streams.ts';
import type { RunCatalog } from './run-catalog.ts';
import type { RunLauncher } from './run-launcher.ts';
import type { Watcher } from './run-watcher.ts';
import type { WriteGuard } from './write-guard.ts';

export interface ServerContext {
  catalog: RunCatalog;
  guard: WriteGuard;
  streams: EventStreams;
  /** The folder of the run a URL names; a 404 for anything else. */
  runDir(name: string): Promise<string>;
  /** The run read from disk (cached while its files stay as they were). */
  loaded(name: string): Promise<LoadedRun>;
  /** Everything the run's page shows (cached likewise). */
  page(name: string): Promise<RunPage>;
  /** What tells a run's page that it changed: its files, and the run this viewer started in it. */
  watchRun(dir: string): (onChange: () => void) => Watcher;
  /** The runs this viewer starts (resume, change). */
  launcher: RunLauncher;
  /** What a change started from a page is run with (`serve --llm`, `--model`), as the session's ChangeAsk takes them. */
  changeModel: { llm?: string; model?: string };
}

export interface RequestParts {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  /** The route's path parameters, percent-decoded. */
  params: Record<string, string>;
}

export type Handler = (ctx: ServerContext, request: RequestParts) => Promise<void> | void;
