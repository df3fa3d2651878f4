/**
 * A durable append-only JSON-lines file. A line is fsync'd before `append` resolves. A torn last line
 * (a crash mid-write) is detected on open, dropped and cut from the file; damage anywhere else is an error.
 */
import fs from 'node:fs/promises';

export interface LoadedLog {
  records: unknown[];
  /** The torn tail that was dropped, if any. */
  droppedTail: string | null;
}

export async function readAppendLog(file: string): Promise<LoadedLog> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], droppedTail: null };
    throw error;
  }
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  const records: unknown[] = [];
  let droppedTail: string | null = last === '' ? null : last;
  lines.forEach((line, index) => {
    try {
      records.push(JSON.parse(line));
    } catch {
      const isLastComplete = index === lines.length - 1 && droppedTail === null;
      if (!isLastComplete) {
        throw new Error(`${file}:${index + 1}: the log is damaged (not JSON) before its last line`);
      }
      droppedTail = line;
    }
  });
  if (droppedTail !== null) {
    const keep = records.length === 0 ? '' : lines.slice(0, records.length).join('\n') + '\n';
    await fs.writeFile(file, keep);
  }
  return { records, droppedTail };
}

export class AppendLog {
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly handle: fs.FileHandle) {}

  static async open(file: string): Promise<AppendLog> {
    return new AppendLog(await fs.open(file, 'a'));
  }

  /** Appends one record; resolves once it is on disk. Appends are written in call order. */
  append(record: unknown): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    const write = this.queue.then(async () => {
      await this.handle.write(line);
      await this.handle.datasync();
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }
}
