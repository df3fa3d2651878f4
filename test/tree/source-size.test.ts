import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * No file in src/ over 400 lines, counted as an editor counts them. Biome's noExcessiveLinesPerFile (in
 * `npm run lint`, beside the 80-line function limit) leaves comment lines out of its count; this counts
 * every line, in every TypeScript and JavaScript file (biome.jsonc's one exemption is a stylesheet).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(?:ts|js|mjs|cjs)$/.test(entry.name) ? [rel] : [];
  });
}

const linesOf = (file: string): number => fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

describe('source size', () => {
  it(`has no file in src/ over ${MAX_LINES} lines, comments and blank lines counted`, () => {
    const files = sourceFiles('src');
    assert.ok(files.length > 100, `only ${files.length} source files found under src/`);
    const over = files.map((file) => ({ file, lines: linesOf(file) })).filter((f) => f.lines > MAX_LINES);
    assert.deepEqual(over, [], 'split these by responsibility');
  });
});
