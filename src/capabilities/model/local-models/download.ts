/**
 * A resumable, checked download of a model file. Bytes go to `<file>.part`; a later call asks the
 * server for the rest (HTTP Range) and appends. The finished file must have the size the server
 * announced, start with the GGUF magic, and match the sha256 when one is known; only then is it moved
 * to its name. An interrupted download keeps its part and says how to resume.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SopworksError } from '../../../ground/errors.ts';
import { checkGgufFile } from './gguf-file.ts';

export interface Progress {
  received: number;
  total: number | null;
  /** Bytes already there from an earlier, interrupted download. */
  resumedFrom: number;
}

export interface DownloadOptions {
  sha256?: string | null;
  onProgress?: (progress: Progress) => void;
  signal?: AbortSignal;
}

export interface Downloaded {
  bytes: number;
  sha256: string;
  resumedFrom: number;
}

export async function downloadModel(url: string, file: string, options: DownloadOptions = {}): Promise<Downloaded> {
  const part = `${file}.part`;
  const have = await sizeOf(part);
  const response = await request(url, have, options.signal);
  let resumedFrom = 0;
  let total: number | null = null;
  if (response.status === 206) {
    resumedFrom = have;
    total = totalOfRange(response.headers.get('content-range'));
  } else if (response.status === 416 && have > 0) {
    // The part already holds every byte: nothing more to fetch, only to check.
    resumedFrom = have;
    total = totalOfRange(response.headers.get('content-range')) ?? have;
  } else {
    // 200: the whole file (a server without Range support starts over).
    const length = Number(response.headers.get('content-length'));
    total = Number.isFinite(length) && length > 0 ? length : null;
  }
  if (response.status !== 416 && response.body) {
    const progress: Progress = { received: resumedFrom, total, resumedFrom };
    const counter = new TransformCounter((n) => {
      progress.received += n;
      options.onProgress?.(progress);
    });
    try {
      await pipeline(Readable.fromWeb(response.body as never), counter, createWriteStream(part, { flags: resumedFrom > 0 ? 'a' : 'w' }), {
        signal: options.signal,
      });
    } catch (error) {
      const at = await sizeOf(part);
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      throw new SopworksError(
        'MODEL_UNREACHABLE',
        `The download from ${url} stopped at ${at} of ${total ?? 'unknown'} bytes (${reason(error)}). What arrived is kept in ${part}.`,
        { hint: 'Run the same command again: it resumes where it stopped.' },
      );
    }
  }
  return finish(url, file, part, total, resumedFrom, options.sha256 ?? null);
}

async function finish(url: string, file: string, part: string, total: number | null, resumedFrom: number, expectedSha: string | null): Promise<Downloaded> {
  const bytes = await sizeOf(part);
  if (total !== null && bytes !== total) {
    const over = bytes > total;
    if (over) await fs.rm(part, { force: true });
    throw new SopworksError('MODEL_UNREACHABLE', `The download from ${url} has ${bytes} bytes where the server announced ${total}.`, {
      hint: over
        ? 'The partial file was removed; run the same command again to download it afresh.'
        : 'Run the same command again: it resumes where it stopped.',
    });
  }
  try {
    await checkGgufFile(part);
  } catch (error) {
    await fs.rm(part, { force: true });
    throw new SopworksError(
      'USAGE',
      `${url} did not give a GGUF model file (${(error as Error).message.replace(/^.*? is not/, 'it is not')}); it was removed.`,
      {
        hint: 'Give the URL of a .gguf file itself (on Hugging Face: a ".../resolve/main/<file>.gguf" link).',
      },
    );
  }
  const sha256 = await sha256Of(part);
  if (expectedSha !== null && sha256 !== expectedSha.toLowerCase()) {
    await fs.rm(part, { force: true });
    throw new SopworksError('MODEL_UNREACHABLE', `The file from ${url} has sha256 ${sha256}, not the expected ${expectedSha}; it was removed.`, {
      hint: 'Run the same command again to download it afresh; if it happens again, the file at that URL has changed.',
    });
  }
  await fs.rename(part, file);
  return { bytes, sha256, resumedFrom };
}

async function request(url: string, have: number, signal: AbortSignal | undefined): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, redirect: 'follow', signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw new SopworksError('MODEL_UNREACHABLE', `Cannot download ${url} (${reason(error)}). Nothing was downloaded.`, {
      hint: 'Check the URL and the network connection; behind a proxy, set HTTPS_PROXY=http://proxy:port (NO_PROXY for hosts to reach directly).',
    });
  }
  if (response.ok || (response.status === 416 && have > 0)) return response;
  await response.body?.cancel();
  throw new SopworksError('MODEL_UNREACHABLE', `The server answered ${response.status} ${response.statusText} for ${url}. Nothing was downloaded.`, {
    hint:
      response.status === 404
        ? 'Check the URL: it names no file there.'
        : response.status === 401 || response.status === 403
          ? 'The file needs access rights (a gated model): download it yourself and use --llm local:<path.gguf>.'
          : 'Try again later.',
  });
}

/** The total size in a Content-Range header ("bytes 100-199/200" → 200); null when unknown. */
const totalOfRange = (header: string | null): number | null => {
  const total = Number(/\/(\d+)\s*$/.exec(header ?? '')?.[1]);
  return Number.isFinite(total) && total > 0 ? total : null;
};

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const reason = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
};

/** Passes bytes through and counts them. */
class TransformCounter extends Transform {
  constructor(private readonly onBytes: (n: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.onBytes(chunk.length);
    done(null, chunk);
  }
}
