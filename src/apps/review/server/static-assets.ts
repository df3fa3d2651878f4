/**
 * The viewer's page, script, stylesheet and the mermaid library — all served from the package, so the
 * viewer works offline. A fixed table: no part of a URL ever becomes a file path here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleClient } from './client-bundle.ts';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
const require = createRequire(import.meta.url);

/**
 * The built package carries the one mermaid file beside the viewer's own (scripts/build.mjs), and not
 * mermaid itself; a clone runs from src/ and takes it from mermaid, a dev dependency.
 */
const BUNDLED_MERMAID = path.join(WEB, 'mermaid.min.js');
const MERMAID = fs.existsSync(BUNDLED_MERMAID) ? BUNDLED_MERMAID : require.resolve('mermaid/dist/mermaid.min.js');

/** The package's built script; a clone has none and bundles the client's TypeScript once per process. */
const BUILT_SCRIPT = path.join(WEB, 'app.js');
let bundled: Promise<string> | null = null;
const bundledOnce = (): Promise<string> => {
  bundled ??= bundleClient();
  // A failed bundle is tried again on the next request (the sources may be mid-edit).
  bundled.catch(() => (bundled = null));
  return bundled;
};

export interface StaticAsset {
  /** A file to stream, or text made in memory. */
  source: { file: string } | { text: () => Promise<string> };
  contentType: string;
  /** Library files do not change while the server runs; the viewer's own files may (during development). */
  immutable: boolean;
}

const JS = 'text/javascript; charset=utf-8';

export const PAGE: StaticAsset = { source: { file: path.join(WEB, 'index.html') }, contentType: 'text/html; charset=utf-8', immutable: false };

export const ASSETS: Record<string, StaticAsset> = {
  'app.js': { source: fs.existsSync(BUILT_SCRIPT) ? { file: BUILT_SCRIPT } : { text: bundledOnce }, contentType: JS, immutable: false },
  'style.css': { source: { file: path.join(WEB, 'style.css') }, contentType: 'text/css; charset=utf-8', immutable: false },
  'mermaid.min.js': { source: { file: MERMAID }, contentType: JS, immutable: true },
};
