/**
 * Reads everything a run left in `.sopworks/` — board, exchanges, run.json, role states — read-only,
 * validating each record. A run in progress is read as far as it has got; a record that does not
 * validate is skipped with a warning rather than hiding the rest of the run.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { STATE_DIR } from '../../capabilities/repository/index.ts';
import { messageTypes } from '../../company/index.ts';
import { Envelope, type Message } from '../../engine/board/index.ts';
import { lockOwner } from '../../engine/run/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { readTextIfExists } from '../../ground/files/index.ts';
import { readJsonLines } from './json-lines.ts';
import { Exchange, RoleState, RunInfo } from './run-files.ts';

export interface IndexedExchange {
  /** Position in exchanges.jsonl (0-based): how the viewer asks for one exchange. */
  index: number;
  exchange: Exchange;
}

export interface RunRecord {
  /** The run's folder (the generated repository). */
  dir: string;
  name: string;
  info: RunInfo | null;
  messages: Message[];
  exchanges: IndexedExchange[];
  roleStates: RoleState[];
  /** The pid of the live sopworks process that holds the run's lock; null when none is at work on it. */
  runningPid: number | null;
  /** What could not be read, said so a reader knows the view is incomplete. */
  warnings: string[];
}

export const runFiles = (dir: string) => {
  const state = path.join(dir, STATE_DIR);
  return {
    state,
    board: path.join(state, 'board.jsonl'),
    exchanges: path.join(state, 'exchanges.jsonl'),
    info: path.join(state, 'run.json'),
    roles: path.join(state, 'roles'),
    lock: path.join(state, 'lock'),
  };
};

const exists = (file: string): Promise<boolean> =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** A folder is a run when sopworks has started recording in it. */
export async function isRunFolder(dir: string): Promise<boolean> {
  const files = runFiles(dir);
  return (await exists(files.board)) || (await exists(files.info));
}

export interface ReadRunOptions {
  /** Read the model exchanges (the largest file of a run); a run listing does without. */
  exchanges?: boolean;
}

export async function readRun(dir: string, options: ReadRunOptions = {}): Promise<RunRecord> {
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat?.isDirectory()) {
    throw new SopworksError('USAGE', `${dir} is not a folder.`, {
      hint: 'Give the folder of a project made by `sopworks run`, e.g. output/<project>.',
    });
  }
  if (!(await isRunFolder(dir))) {
    throw new SopworksError('USAGE', `${dir} is not a sopworks run: it has no ${STATE_DIR}/board.jsonl or ${STATE_DIR}/run.json.`, {
      hint: 'Give the folder of a project made by `sopworks run`, e.g. output/<project>; `sopworks serve` lists the runs in a folder.',
    });
  }
  const files = runFiles(dir);
  const warnings: string[] = [];
  const [info, messages, exchanges, roleStates, runningPid] = await Promise.all([
    readInfo(files.info, warnings),
    readMessages(files.board, warnings),
    options.exchanges === false ? [] : readExchanges(files.exchanges, warnings),
    readRoleStates(files.roles, warnings),
    lockOwner(path.dirname(files.lock)),
  ]);
  return { dir, name: path.basename(dir), info, messages, exchanges, roleStates, runningPid, warnings };
}

/** A run's run.json alone (null when it is missing or not read whole): what a list or a link needs. */
export const readRunInfo = (dir: string): Promise<RunInfo | null> => readInfo(runFiles(dir).info, []);

async function readInfo(file: string, warnings: string[]): Promise<RunInfo | null> {
  const text = await readTextIfExists(file);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // run.json is rewritten whole when a run ends; a reader can catch it half-written.
    warnings.push(`${file}: not valid JSON (it may be being rewritten); run details are missing from this view.`);
    return null;
  }
  const parsed = RunInfo.safeParse(raw);
  if (!parsed.success) {
    warnings.push(`${file}: ${issues(parsed.error)}; run details are missing from this view.`);
    return null;
  }
  return parsed.data;
}

async function readMessages(file: string, warnings: string[]): Promise<Message[]> {
  const log = await readJsonLines(file);
  if (!log) return [];
  if (log.tornLine !== null) warnings.push(`${file}:${log.tornLine}: a torn last line (a crash mid-write) was left out.`);
  const messages: Message[] = [];
  for (const { line, value } of log.records) {
    const envelope = Envelope.safeParse(value);
    if (!envelope.success) {
      warnings.push(`${file}:${line}: not a board message (${issues(envelope.error)}); left out.`);
      continue;
    }
    const message = envelope.data as Message;
    const schema = messageTypes[message.type]?.schema;
    const payload = schema?.safeParse(message.payload);
    if (payload && !payload.success) {
      warnings.push(`${file}:${line}: the ${message.type} payload of ${message.id} does not match its schema (${issues(payload.error)}); shown as recorded.`);
    }
    messages.push(payload?.success ? { ...message, payload: payload.data } : message);
  }
  return messages;
}

async function readExchanges(file: string, warnings: string[]): Promise<IndexedExchange[]> {
  const log = await readJsonLines(file);
  if (!log) return [];
  if (log.tornLine !== null) warnings.push(`${file}:${log.tornLine}: a torn last line (a crash mid-write) was left out.`);
  const exchanges: IndexedExchange[] = [];
  log.records.forEach(({ line, value }, index) => {
    const parsed = Exchange.safeParse(value);
    if (parsed.success) exchanges.push({ index, exchange: parsed.data });
    else warnings.push(`${file}:${line}: not a model exchange (${issues(parsed.error)}); left out.`);
  });
  return exchanges;
}

/** Role state files are named `<roleId>.json`; other files in the folder (snapshots) are not read here. */
const ROLE_STATE_FILE = /^[A-Za-z0-9_-]+\.json$/;

async function readRoleStates(folder: string, warnings: string[]): Promise<RoleState[]> {
  let names: string[];
  try {
    names = (await fs.readdir(folder)).filter((name) => ROLE_STATE_FILE.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const states: RoleState[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(file, 'utf8'));
    } catch {
      warnings.push(`${file}: not valid JSON (it may be being rewritten); that role's state is not shown.`);
      continue;
    }
    const parsed = RoleState.safeParse(raw);
    if (parsed.success) states.push(parsed.data);
    else warnings.push(`${file}: ${issues(parsed.error)}; that role's state is not shown.`);
  }
  return states;
}

const issues = (error: { issues: { path: PropertyKey[]; message: string }[] }): string =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
