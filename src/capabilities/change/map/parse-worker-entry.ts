/**
 * What a parse worker (parse-worker.ts) runs, loaded without TypeScript in the worker: registering tsx in
 * a worker thread starts a loader thread and compiles its modules anew, ~0.8 s of CPU per worker here —
 * a fifth of a cold map of 3,000 files. An installed sopworks runs dist/, where the worker is compiled
 * JavaScript beside this module. A clone runs src/: the worker and what it imports (a few modules, no
 * package but Node's own) are bundled by esbuild (a dev dependency, there) into one CommonJS script,
 * once per process, and the worker evaluates it. `import.meta.url` in the bundle is the worker's own
 * source file, so what its modules find from their place (the grammars' package) they find the same.
 */
import { fileURLToPath } from 'node:url';

export type WorkerEntry = { url: URL } | { code: string };

let entry: Promise<WorkerEntry> | null = null;

export function parseWorkerEntry(): Promise<WorkerEntry> {
  entry ??= find().catch((error: unknown) => {
    entry = null;
    throw error;
  });
  return entry;
}

async function find(): Promise<WorkerEntry> {
  if (import.meta.url.endsWith('.js')) return { url: new URL('./parse-worker.js', import.meta.url) };
  const worker = new URL('./parse-worker.ts', import.meta.url);
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(worker)],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // A package is never bundled: the worker's modules import none (a test below says so), and one would
    // be found from the worker's folder, not from where the script is evaluated.
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(worker.href) },
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild produced nothing from ${worker.pathname}`);
  return { code };
}
