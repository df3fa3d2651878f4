/** The viewer's answers: JSON, its files, errors with a status — always with its security headers. */
import fs from 'node:fs';
import type http from 'node:http';
import type { StaticAsset } from './static-assets.ts';

/** A refusal or a miss, answered with its status and message (and never reported as a server fault). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

export const SECURITY_HEADERS = {
  // Mermaid styles its SVG with inline <style>; scripts come only from this server.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

const assetHeaders = (asset: StaticAsset) => ({
  ...SECURITY_HEADERS,
  'content-type': asset.contentType,
  'cache-control': asset.immutable ? 'public, max-age=86400' : 'no-cache',
});

export async function sendAsset(res: http.ServerResponse, asset: StaticAsset): Promise<void> {
  if ('text' in asset.source) {
    const text = await asset.source.text();
    res.writeHead(200, { ...assetHeaders(asset), 'content-length': Buffer.byteLength(text) });
    return void res.end(res.req.method === 'HEAD' ? undefined : text);
  }
  const file = asset.source.file;
  const stream = fs.createReadStream(file);
  stream.on('open', () => {
    res.writeHead(200, assetHeaders(asset));
    if (res.req.method === 'HEAD') {
      stream.destroy();
      res.end();
    } else {
      stream.pipe(res);
    }
  });
  stream.on('error', (error) => {
    if (!res.headersSent) sendJson(res, 500, { error: `The viewer's file ${file} could not be read: ${error.message}`, hint: 'Reinstall sopworks (npm ci).' });
    else res.destroy(error);
  });
}

/** A request's JSON body, at most `maxBytes` long. */
export async function readJsonBody(req: http.IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, `A request to the viewer is at most ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The body is not valid JSON.');
  }
}
