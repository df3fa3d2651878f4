/**
 * `sopworks models pull|list|rm`: the cache of local models (GGUF files) that `--llm local` runs.
 * Nothing is downloaded unless `pull` is asked to.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import {
  CATALOG,
  catalogEntry,
  detectGpu,
  downloadModel,
  engineDir,
  formatBytes,
  installedIn,
  listCachedModels,
  modelFile,
  modelsDir,
  type Progress,
  removeCachedModel,
  setUpEngine,
  writeNote,
} from '../../capabilities/model/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { parseRequest } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

const PullOptions = z.object({
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal digits')
    .optional(),
  name: z.string().regex(NAME, 'must be letters, digits, ".", "_" or "-"').optional(),
});

const SetupOptions = z.object({
  gpu: z.enum(['auto', 'cuda', 'vulkan', 'none'], { message: 'must be auto, cuda, vulkan or none' }),
  force: z.boolean().default(false),
});

/** `models setup`: the local engine for this machine, into the engine folder (SOPWORKS_ENGINE_DIR). */
export async function setup(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(SetupOptions, rawOptions, 'models setup');
  const dir = engineDir();
  if (installedIn(dir) && !options.force) {
    io.out(`The local engine is already installed in ${dir} (--force installs it again).`);
    return EXIT.done;
  }
  const gpu = options.gpu === 'auto' ? detectGpu() : options.gpu;
  await setUpEngine(dir, gpu, (line) => io.err(line));
  io.out(`Local engine ready in ${dir} (${formatBytes(await folderBytes(dir))}). Next: sopworks models pull qwen2.5-coder-1.5b`);
  return EXIT.done;
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export async function pull(what: string, rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(PullOptions, rawOptions, 'models pull');
  const source = sourceOf(what, options);
  const dir = modelsDir();
  const file = modelFile(dir, source.name);
  if (await exists(file)) {
    io.out(`${source.name} is already in the cache: ${file}`);
    return EXIT.done;
  }
  await fs.mkdir(dir, { recursive: true });
  const about = source.bytes ? ` (about ${formatBytes(source.bytes)}; needs about ${formatBytes(source.memoryBytes!)} of memory)` : '';
  io.err(`Pulling ${source.name}${about}\n  from ${source.url}\n  into ${file}`);
  const done = await downloadModel(source.url, file, { sha256: source.sha256, onProgress: progressLine(io) });
  if (done.resumedFrom > 0) io.err(`  resumed from ${formatBytes(done.resumedFrom)}`);
  await writeNote(file, { url: source.url, bytes: done.bytes, sha256: done.sha256, pulledAt: new Date().toISOString() });
  io.out(`Pulled ${source.name}: ${file} (${formatBytes(done.bytes)}, sha256 ${done.sha256})`);
  io.out(`Run with it: sopworks run --llm local:${source.name} "<what to build>"`);
  return EXIT.done;
}

interface Source {
  name: string;
  url: string;
  sha256: string | null;
  bytes: number | null;
  memoryBytes: number | null;
}

function sourceOf(what: string, options: z.infer<typeof PullOptions>): Source {
  if (/^https?:\/\//i.test(what)) {
    let url: URL;
    try {
      url = new URL(what);
    } catch {
      throw new SopworksError('USAGE', `"${what}" is not a valid URL.`, { hint: 'Give the URL of a .gguf file.' });
    }
    const base = path.basename(decodeURIComponent(url.pathname)).replace(/\.gguf$/i, '');
    const name = options.name ?? base;
    if (!NAME.test(name)) {
      throw new SopworksError('USAGE', `The URL gives no usable model name ("${base}").`, { hint: 'Name it: sopworks models pull <url> --name <name>' });
    }
    return { name, url: url.href, sha256: options.sha256 ?? null, bytes: null, memoryBytes: null };
  }
  const entry = catalogEntry(what);
  if (!entry) {
    const names = CATALOG.map((e) => e.name);
    const near = closest(what.toLowerCase(), names);
    const likely = distance(what.toLowerCase(), near) <= Math.max(3, Math.floor(near.length / 3));
    throw new SopworksError('USAGE', `Unknown model "${what}".${likely ? ` Did you mean ${near}?` : ''}`, {
      hint: `${likely ? `sopworks models pull ${near} — recommended` : 'Recommended'}: ${names.join(', ')} (sopworks models list shows their sizes); or give the URL of a .gguf file.`,
    });
  }
  return { name: entry.name, url: entry.url, sha256: options.sha256 ?? entry.sha256, bytes: entry.bytes, memoryBytes: entry.memoryBytes };
}

/** Progress on stderr: one line redrawn on a terminal, a line per tenth otherwise (logs, CI). */
function progressLine(io: Output): (p: Progress) => void {
  const tty = io.terminal?.progressLine === true;
  let lastTenth = -1;
  let lastDraw = 0;
  return (p) => {
    const share = p.total ? p.received / p.total : null;
    const text = `  ${share === null ? '' : `${Math.floor(share * 100)}% `}${formatBytes(p.received)}${p.total ? ` of ${formatBytes(p.total)}` : ''}`;
    if (tty) {
      const now = Date.now();
      if (now - lastDraw < 200 && p.received !== p.total) return;
      lastDraw = now;
      process.stderr.write(`\r${text}   ${p.received === p.total ? '\n' : ''}`);
      return;
    }
    const tenth = share === null ? Math.floor(p.received / (100 * 1024 ** 2)) : Math.floor(share * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      io.err(text);
    }
  };
}

export async function list(io: Output): Promise<number> {
  const dir = modelsDir();
  const cached = await listCachedModels(dir);
  io.out(`Model cache: ${dir} (set SOPWORKS_MODELS_DIR to move it)`);
  if (cached.length === 0) io.out('  (empty)');
  for (const m of cached) io.out(`  ${m.name.padEnd(24)} ${formatBytes(m.bytes).padStart(8)}  ${m.note ? `from ${m.note.url}` : '(placed by hand)'}`);
  const partial = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.gguf.part'));
  for (const p of partial) io.out(`  ${p.replace(/\.gguf\.part$/, '').padEnd(24)} partial download: \`sopworks models pull\` resumes it`);
  io.out('Recommended (sopworks models pull <name>):');
  for (const e of CATALOG) {
    const pulled = cached.some((m) => m.name === e.name) ? '  [pulled]' : '';
    io.out(`  ${e.name.padEnd(24)} ${formatBytes(e.bytes).padStart(8)}, needs ~${formatBytes(e.memoryBytes)} of memory — ${e.note}${pulled}`);
  }
  return EXIT.done;
}

export async function remove(name: string, io: Output): Promise<number> {
  const dir = modelsDir();
  if (!NAME.test(name) || !(await removeCachedModel(dir, name))) {
    const cached = (await listCachedModels(dir)).map((m) => m.name);
    throw new SopworksError('USAGE', `No model "${name}" in the model cache (${dir}).`, { hint: `Cached: ${cached.join(', ') || '(none)'}.` });
  }
  io.out(`Removed ${name} from ${dir}`);
  return EXIT.done;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
