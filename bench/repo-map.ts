/**
 * `npm run bench:map`: the change run's repository map on real repositories nobody here wrote — its
 * build time (a cold cache, then warm: the cache keyed by blob hashes), its size in tokens, and whether
 * the files a request is really about are among the signatures it shows (their place, best first).
 * The repositories are assembled from sources this machine has, each copied into a fresh git repository:
 *
 *   go-json      Go's encoding/json (23 files with its tests)            needs golang-go
 *   yaml-js      the `yaml` npm package as published (CommonJS + ESM + .d.ts, from node_modules)
 *   py-stdlib    Python 3's standard library, ~500 files                needs python3
 *   go-std       Go's standard library, 3,000 files                      needs golang-go
 *
 *   npm run bench:map -- [--only go-json,py-stdlib] [--tokens 1536] [--json FILE]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer';
import { mapRepository } from '../src/capabilities/change/repository-map.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { only: { type: 'string' }, tokens: { type: 'string', default: '1536' }, json: { type: 'string' } } });
const tokens = Number(values.tokens);

interface Request {
  text: string;
  /** The files the request is really about: any of them counts. */
  about: string[];
}

interface Repository {
  name: string;
  /** Files to copy: [source folder, folder in the repository, how many files at most (whole folders first)]. */
  sources: () => [string, string][] | null;
  limit: number;
  requests: Request[];
}

const goRoot = (): string | null => {
  try {
    return execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const pythonLib = (): string | null => {
  try {
    return execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};

const GO_PACKAGES = [
  'archive',
  'bufio',
  'bytes',
  'compress',
  'container',
  'context',
  'crypto',
  'database',
  'debug',
  'embed',
  'encoding',
  'errors',
  'expvar',
  'flag',
  'fmt',
  'go',
  'hash',
  'html',
  'image',
  'index',
  'io',
  'log',
  'math',
  'mime',
  'net',
  'os',
  'path',
  'reflect',
  'regexp',
  'sort',
  'strconv',
  'strings',
  'sync',
  'text',
  'time',
  'unicode',
  'internal',
  'syscall',
];

const REPOSITORIES: Repository[] = [
  {
    name: 'go-json',
    sources: () => (goRoot() ? [[path.join(goRoot()!, 'src', 'encoding', 'json'), '.']] : null),
    limit: 1000,
    requests: [
      { text: 'make the Decoder reject duplicate keys in an object', about: ['decode.go', 'stream.go'] },
      { text: 'let Indent take a maximum line width', about: ['indent.go'] },
      { text: 'make HTMLEscape also escape single quotes', about: ['encode.go'] },
    ],
  },
  {
    name: 'yaml-js',
    sources: () => [[path.join(ROOT, 'node_modules', 'yaml'), '.']],
    limit: 1000,
    requests: [
      { text: 'make stringify sort mapping keys by default', about: ['dist/nodes/YAMLMap.js', 'dist/schema/Schema.js', 'dist/stringify/stringify.js'] },
      { text: 'let foldFlowLines keep long URLs on one line', about: ['dist/stringify/foldFlowLines.js'] },
      { text: "make the lexer accept tabs in a block scalar's indentation", about: ['dist/parse/lexer.js', 'browser/dist/parse/lexer.js'] },
    ],
  },
  {
    name: 'py-stdlib',
    sources: () => {
      const lib = pythonLib();
      if (!lib) return null;
      const skip = new Set([
        'encodings',
        'lib-dynload',
        'test',
        'distutils',
        'ensurepip',
        'site-packages',
        'dist-packages',
        '__pycache__',
        'idlelib',
        'tkinter',
        'turtledemo',
      ]);
      return fs
        .readdirSync(lib)
        .filter((name) => !skip.has(name) && !name.startsWith('config-'))
        .map((name) => [path.join(lib, name), name] as [string, string]);
    },
    limit: 500,
    requests: [
      { text: "add a durations option to unittest's runner that prints the slowest tests", about: ['unittest/runner.py', 'unittest/main.py'] },
      { text: 'make json.dumps sort keys by default', about: ['json/__init__.py', 'json/encoder.py'] },
      { text: 'let shlex.split keep the quotes around quoted words', about: ['shlex.py'] },
      { text: 'make http.server list a directory sorted by modification time', about: ['http/server.py'] },
    ],
  },
  {
    name: 'go-std',
    sources: () => (goRoot() ? GO_PACKAGES.map((p) => [path.join(goRoot()!, 'src', p), p] as [string, string]) : null),
    limit: 3000,
    requests: [
      { text: "make the http Client's timeout error name the URL that timed out", about: ['net/http/client.go'] },
      { text: 'let base64 decoding skip whitespace and newlines', about: ['encoding/base64/base64.go'] },
      { text: 'make tar.Reader reject file names that climb out of the archive with ..', about: ['archive/tar/reader.go'] },
      { text: 'let gzip.Writer write a comment into the header', about: ['compress/gzip/gzip.go'] },
    ],
  },
];

/** Copies up to `limit` files (sorted, whole sources in order) into a new git repository with one commit. */
function assemble(repository: Repository, into: string): number | null {
  const sources = repository.sources();
  if (!sources || sources.some(([from]) => !fs.existsSync(from))) return null;
  let copied = 0;
  for (const [from, to] of sources) {
    const files = walk(from).sort();
    for (const file of files) {
      if (copied >= repository.limit) break;
      const target = path.join(into, to, path.relative(from, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
      copied++;
    }
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: into, stdio: 'pipe' });
  git('init', '--quiet');
  git('add', '-A');
  git('commit', '--quiet', '-m', `${repository.name} as copied`);
  return copied;
}

function walk(dir: string): string[] {
  const stat = fs.statSync(dir);
  if (stat.isFile()) return [dir];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.name === '__pycache__' || entry.name === '.git') return [];
    if (entry.isDirectory()) return walk(full);
    return entry.isFile() ? [full] : [];
  });
}

async function build(root: string, request: string) {
  const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const map = await mapRepository({ root, base, branch: 'sopworks/bench', slug: 'bench', request, tokens });
  const used = process.cpuUsage(cpu);
  return { map, wallMs: Math.round(performance.now() - started), cpuMs: Math.round((used.user + used.system) / 1000) };
}

const results: unknown[] = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sopworks-bench-map-'));
process.env.SOPWORKS_CACHE_DIR = path.join(work, 'cache');
console.log(
  `machine: ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; budget ${tokens} tokens\n`,
);
for (const repository of REPOSITORIES.filter((r) => !values.only || values.only.split(',').includes(r.name))) {
  const root = path.join(work, repository.name);
  const files = assemble(repository, root);
  if (files === null) {
    console.log(`${repository.name}: skipped (its sources are not on this machine)`);
    continue;
  }
  const load = os.loadavg()[0]!.toFixed(1);
  const cold = await build(root, repository.requests[0]!.text);
  const warm = await build(root, repository.requests[0]!.text);
  const tree = countTokens(cold.map.tree);
  const rest = countTokens(JSON.stringify([cold.map.manifests, cold.map.readmes]));
  console.log(
    `${repository.name}: ${cold.map.fileCount} files, load ${load} → ${os.loadavg()[0]!.toFixed(1)}; cold ${cold.wallMs} ms (cpu ${cold.cpuMs} ms), warm ${warm.wallMs} ms (cpu ${warm.cpuMs} ms); ` +
      `tree ${tree} tokens, signatures ${cold.map.signatureTokens} tokens in ${cold.map.interfaces.length} files, manifests+readme ${rest} tokens`,
  );
  const found = [];
  for (const request of repository.requests) {
    const { map } = await build(root, request.text);
    const shown = map.interfaces.map((i) => i.path);
    const place = shown.findIndex((p) => request.about.includes(p));
    found.push({ request: request.text, about: request.about, place: place < 0 ? null : place + 1, top: shown.slice(0, 5) });
    console.log(
      `  "${request.text}": ${place < 0 ? 'NOT in the map' : `${shown[place]} is #${place + 1} of ${shown.length}`}  (top: ${shown.slice(0, 3).join(', ')})`,
    );
  }
  results.push({
    repository: repository.name,
    files: cold.map.fileCount,
    cold,
    warm: { wallMs: warm.wallMs, cpuMs: warm.cpuMs },
    treeTokens: tree,
    signatureTokens: cold.map.signatureTokens,
    found,
  });
}
if (values.json)
  fs.writeFileSync(
    values.json,
    JSON.stringify(
      results.map((r) => ({ ...(r as object), cold: undefined })),
      null,
      2,
    ),
  );
fs.rmSync(work, { recursive: true, force: true });
