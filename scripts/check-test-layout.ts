/**
 * test/unit/ mirrors src/, so a file's test is found by its path (docs/architecture.md, Tests): the test of
 * src/<tier>/<unit>/<file>.ts is test/unit/<tier>/<unit>/<file>.test.ts; a test of several files of a folder
 * sits in that folder under a name of its own; test/unit/bench/ mirrors bench/. Part of `npm run
 * check:imports`; it fails on a unit test in a folder src/ does not have, and on a test named after a file of
 * src/ that sits outside that file's mirror. The import half of the rule (a test reaches inside only its own
 * unit) is dependency-cruiser's (`test-through-the-face` in .dependency-cruiser.cjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_FILE = /\.test\.ts$/;

/** Every file under `dir` (relative to `root`), as a path with forward slashes. */
function filesUnder(root: string, dir: string): string[] {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, rel) : [rel];
  });
}

/** The source folder a folder of test/unit/ mirrors: test/unit/bench/… → bench/…, anything else → src/…. */
function mirroredFolder(testFolder: string): string {
  const inside = path.posix.relative('test/unit', testFolder);
  return inside === 'bench' || inside.startsWith('bench/') ? inside : path.posix.join('src', inside);
}

/** Each unit test out of place, with where it belongs: [] when test/unit/ mirrors src/ and bench/. */
export function testLayoutProblems(root: string): string[] {
  const sources = [...filesUnder(root, 'src'), ...filesUnder(root, 'bench')].filter((file) => file.endsWith('.ts'));
  const foldersOf = new Map<string, string[]>();
  for (const file of sources) {
    const name = path.posix.basename(file, '.ts');
    foldersOf.set(name, [...(foldersOf.get(name) ?? []), path.posix.dirname(file)]);
  }
  const problems: string[] = [];
  for (const test of filesUnder(root, 'test/unit')) {
    const folder = path.posix.dirname(test);
    const mirrored = mirroredFolder(folder);
    if (!TEST_FILE.test(test)) {
      problems.push(`${test}: test/unit/ holds tests only (*.test.ts): put a shared helper in test/helpers/.`);
    } else if (folder === 'test/unit') {
      problems.push(
        `${test}: test/unit/ mirrors src/: git mv it to test/unit/<tier>/<unit>/, the folder of the file it tests (a check of the whole tree goes in test/tree/).`,
      );
    } else if (!fs.statSync(path.join(root, mirrored), { throwIfNoEntry: false })?.isDirectory()) {
      problems.push(`${test}: ${mirrored}/ does not exist: git mv the test to the mirror of the folder it tests.`);
    } else {
      const named = foldersOf.get(path.posix.basename(test, '.test.ts')) ?? [];
      if (named.length > 0 && !named.includes(mirrored)) {
        const where = named.map((dir) => `${path.posix.join('test/unit', dir.replace(/^src(\/|$)/, ''))}/`).join(' or ');
        problems.push(
          `${test}: it is named after ${named.map((dir) => `${dir}/${path.posix.basename(test, '.test.ts')}.ts`).join(', ')}: git mv it to ${where}.`,
        );
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = testLayoutProblems(path.resolve(import.meta.dirname, '..'));
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} unit test(s) out of place: test/unit/ mirrors src/ (docs/architecture.md, Tests).\n`);
    process.exit(1);
  }
  process.stdout.write('✔ test/unit/ mirrors src/\n');
}
