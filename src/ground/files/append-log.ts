/**
 * A durable append-only JSON-lines file. A line is written before `append` resolves — a process that is
 * killed loses none of it — and, for a log opened with `flush: 'each'` (the board), also flushed to
 * the disk (fdatasync), so not even a power cut loses it. A torn last line (a crash mid-write) is
 * detected on open, dropped and cut from the file; damage anywhere else is an error.
 */
import fs from 'node:fs/promises';
import { type CrashPointName, crashPoint } from '../crash-point.ts';
import { parseJsonLines } from './json-lines.ts';
import { readTextIfExists } from './read-text-if-exists.ts';
import { assertMayWrite } from './write-fence.ts';

export interface LoadedLog {
  records: unknown[];
  /** The torn tail that was dropped, if any. */
  droppedTail: string | null;
}

/**
 * Reads the log without changing it: safe while another process appends (a line being written shows
 * up as a torn tail and is left alone). Use `repairAppendLog` before appending to a log yourself.
 */
export async function readAppendLog(file: string): Promise<LoadedLog> {
  return loadAppendLog(file, false);
}

/** Reads the log and cuts a torn last line from the file — only for the one process that appends. */
export async function repairAppendLog(file: string): Promise<LoadedLog> {
  return loadAppendLog(file, true);
}

async function loadAppendLog(file: string, repair: boolean): Promise<LoadedLog> {
  const text = await readTextIfExists(file);
  if (text === null) return { records: [], droppedTail: null };
  const parsed = parseJsonLines(text);
  if (parsed.damagedAt !== null) throw new Error(`${file}:${parsed.damagedAt}: the log is damaged (not JSON) before its last line`);
  const records = parsed.records.map((r) => r.value);
  const droppedTail = parsed.partial ?? parsed.torn?.text ?? null;
  if (repair && droppedTail !== null) {
    const lines = text.split('\n');
    const kept = parsed.records.at(-1)?.line ?? 0;
    await fs.writeFile(file, kept === 0 ? '' : `${lines.slice(0, kept).join('\n')}\n`);
  }
  return { records, droppedTail };
}

/**
 * When lines reach the disk itself: `each` — before `append` resolves; `close` — when the log is closed
 * (a power cut may lose the lines written since it opened; a killed process loses none).
 */
export type Flush = 'each' | 'close';

/** An append-only log of records, wherever it is kept (a file here; memory in a test's run store). */
export interface RecordLog {
  /** Resolves once the record is written (and flushed, when the log flushes each one). */
  append(record: unknown): Promise<void>;
  close(): Promise<void>;
}

export class AppendLog implements RecordLog {
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly handle: fs.FileHandle,
    private readonly flush: Flush,
    private readonly crashPointName: CrashPointName | null,
  ) {}

  /** `crashPointName` marks the log for fault injection (the kill test's torn line). */
  static async open(file: string, options: { flush: Flush; crashPointName?: CrashPointName }): Promise<AppendLog> {
    return new AppendLog(file, await fs.open(file, 'a'), options.flush, options.crashPointName ?? null);
  }

  /** Appends one record; resolves once it is written (and flushed, with `flush: 'each'`). Appends are written in call order. */
  append(record: unknown): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    const write = this.queue.then(async () => {
      assertMayWrite(this.file);
      if (this.crashPointName && process.env.SOPWORKS_CRASH_AT?.startsWith(`${this.crashPointName}:`)) {
        // Fault injection (see crash-point.ts): half a line on disk, then the crash.
        await this.handle.write(line.slice(0, line.length >> 1));
        await this.handle.datasync();
        crashPoint(this.crashPointName);
        await this.handle.write(line.slice(line.length >> 1));
      } else {
        await this.handle.write(line);
      }
      if (this.flush === 'each') await this.handle.datasync();
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.flush === 'close') await this.handle.datasync();
    await this.handle.close();
  }
}
