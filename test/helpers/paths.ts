import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SOPS = path.join(ROOT, 'sops');
export const ROLES = path.join(ROOT, 'roles');
export const DEMO = path.join(ROOT, 'examples', 'wordfreq.yaml');
/** The scripted change of the demo's project (`npm run demo:change`). */
export const DEMO_CHANGE = path.join(ROOT, 'examples', 'wordfreq-change.yaml');
/**
 * The CLI a test starts as a child: the JavaScript built into dist/ before the suite (test/helpers/build-once.cjs),
 * without tsx's loader in every child. SOURCE_BIN is bin/sopworks.js, which runs src/ through tsx in a clone.
 */
export const BIN = path.join(ROOT, 'test', 'helpers', 'built-cli.mjs');
export const SOURCE_BIN = path.join(ROOT, 'bin', 'sopworks.js');
