/**
 * The viewer's page, script, stylesheet and the mermaid library — all served from the package, so the
 * viewer works offline. A fixed table: no part of a URL ever becomes a file path here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
const require = createRequire(import.meta.url);

/**
 * The built package carries the one mermaid file beside the viewer's own (scripts/build.mjs), and not
 * mermaid itself; a clone runs from src/ and takes it from mermaid, a dev dependency.
 */
const BUNDLED_MERMAID = path.join(WEB, 'mermaid.min.js');
const MERMAID = fs.existsSync(BUNDLED_MERMAID) ? BUNDLED_MERMAID : require.resolve('mermaid/dist/mermaid.min.js');

export interface StaticAsset {
  file: string;
  contentType: string;
  /** Library files do not change while the server runs; the viewer's own files may (during development). */
  immutable: boolean;
}

export const PAGE: StaticAsset = { file: path.join(WEB, 'index.html'), contentType: 'text/html; charset=utf-8', immutable: false };

export const ASSETS: Record<string, StaticAsset> = {
  'app.js': { file: path.join(WEB, 'app.js'), contentType: 'text/javascript; charset=utf-8', immutable: false },
  'style.css': { file: path.join(WEB, 'style.css'), contentType: 'text/css; charset=utf-8', immutable: false },
  'mermaid.min.js': { file: MERMAID, contentType: 'text/javascript; charset=utf-8', immutable: true },
};
