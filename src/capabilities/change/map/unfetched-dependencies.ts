/**
 * What a Go or Rust repository's tests need that nothing here would bring: sopworks installs npm's and
 * pip's dependencies (host/install), never a Go module's or a Rust crate's, and the tests' sandbox has no
 * network — so a go.mod's requirements or a Cargo.toml's registry and git dependencies build only when the
 * repository vendors them (`vendor/modules.txt`; `.cargo/config.toml` replacing crates-io). And Go 1.16
 * and later build only in a module: Go test files in a repository without a go.mod cannot run at all. Read
 * from the files at the base, before any model is asked. Pure.
 */
import { parse as parseToml } from 'smol-toml';
import type { ReadFile } from './declared/declared-command.ts';
import { isTestPath, testLanguageOf } from './test-layout.ts';

export interface UnfetchedDependencies {
  /** The file that declares them (go.mod, Cargo.toml, crates/x/Cargo.toml), or the Go test files' folder with no go.mod. */
  manifest: string;
  /** Why the tests cannot build here, as a clause ("go.mod requires 3 modules (a, b, c) that nothing here fetches"). */
  what: string;
  /** What to do in the repository, then run the change again. */
  remedy: string;
}

const SHOWN = 3;
const some = (names: readonly string[]): string => `${names.slice(0, SHOWN).join(', ')}${names.length > SHOWN ? ` and ${names.length - SHOWN} more` : ''}`;

export async function unfetchedDependencies(files: readonly string[], read: ReadFile): Promise<UnfetchedDependencies[]> {
  const at = new Set(files);
  return [...(await goModules(files, at, read)), ...(await rustCrates(files, at, read))];
}

async function goModules(files: readonly string[], at: Set<string>, read: ReadFile): Promise<UnfetchedDependencies[]> {
  const goTests = files.some((f) => isTestPath(f) && testLanguageOf(f) === 'go');
  if (!at.has('go.mod')) {
    // A go.mod in a subfolder is a module of its own, which a test command may run from there.
    return goTests && !files.some((f) => f.endsWith('/go.mod'))
      ? [
          {
            manifest: 'go.mod',
            what: 'the repository has Go test files but no go.mod, and Go 1.16 and later build only in a module',
            remedy:
              'add a go.mod (`go mod init <the path its packages are imported by>`, then `go mod tidy`; a go.mod that requires modules also needs them vendored: `go mod vendor`), commit it',
          },
        ]
      : [];
  }
  if (at.has('vendor/modules.txt')) return [];
  const required = goRequirements((await read('go.mod')) ?? '');
  return required.length > 0
    ? [
        {
          manifest: 'go.mod',
          what: `go.mod requires ${required.length === 1 ? 'a module' : `${required.length} modules`} (${some(required)}) that nothing here fetches`,
          remedy: '`go mod vendor`, commit vendor/',
        },
      ]
    : [];
}

/** The modules a go.mod requires, less those a `replace` points at a folder of the repository. */
export function goRequirements(goMod: string): string[] {
  const text = goMod.replace(/\/\/.*$/gm, '');
  const required = new Set<string>();
  const local = new Set<string>();
  const directive = (name: string) => new RegExp(`^\\s*${name}\\s*\\(([^)]*)\\)|^\\s*${name}\\s+([^(\\n][^\\n]*)$`, 'gm');
  const entries = (name: string) =>
    [...text.matchAll(directive(name))]
      .flatMap((m) => (m[1] ?? m[2] ?? '').split('\n'))
      .map((l) => l.trim())
      .filter(Boolean);
  for (const line of entries('require')) required.add(line.split(/\s+/)[0]!);
  for (const line of entries('replace')) {
    const [from, to] = line.split('=>').map((side) => side.trim().split(/\s+/)[0] ?? '');
    // A replacement by a path (./x, ../x, /x) is a folder, not a module to fetch.
    if (from && to && /^(?:\.{1,2}\/|\/)/.test(to)) local.add(from);
  }
  return [...required].filter((module) => !local.has(module)).map((m) => m.replace(/^"|"$/g, ''));
}

async function rustCrates(files: readonly string[], at: Set<string>, read: ReadFile): Promise<UnfetchedDependencies[]> {
  if (!at.has('Cargo.toml')) return [];
  for (const config of ['.cargo/config.toml', '.cargo/config']) {
    if (at.has(config) && /replace-with\s*=/.test((await read(config)) ?? '')) return [];
  }
  const root = tomlOf((await read('Cargo.toml')) ?? '');
  // A workspace builds its members: every Cargo.toml of the repository counts (a crate outside it is rare).
  const manifests = root && 'workspace' in root ? files.filter((f) => f === 'Cargo.toml' || f.endsWith('/Cargo.toml')) : ['Cargo.toml'];
  const out: UnfetchedDependencies[] = [];
  for (const manifest of manifests) {
    const crates = manifest === 'Cargo.toml' ? cratesOf(root) : cratesOf(tomlOf((await read(manifest)) ?? ''));
    if (crates.length > 0) {
      out.push({
        manifest,
        what: `${manifest} depends on ${crates.length === 1 ? 'a crate' : `${crates.length} crates`} (${some(crates)}) that nothing here fetches`,
        remedy: '`cargo vendor`, add the `[source]` lines it prints to .cargo/config.toml, commit both',
      });
    }
  }
  return out;
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value);

function tomlOf(text: string): Table | null {
  try {
    return parseToml(text) as Table;
  } catch {
    // A Cargo.toml cargo itself cannot read fails the tests on its own, with cargo's message.
    return null;
  }
}

const DEPENDENCY_TABLES = ['dependencies', 'dev-dependencies', 'build-dependencies'];

/** The crates a manifest takes from a registry or git: every dependency but one given by `path`, or optional. */
function cratesOf(manifest: Table | null): string[] {
  if (!manifest) return [];
  const workspace = isTable(manifest.workspace) ? manifest.workspace : {};
  const tables = [manifest, ...Object.values(isTable(manifest.target) ? manifest.target : {}).filter(isTable), { dependencies: workspace.dependencies }];
  const crates = new Set<string>();
  for (const table of tables) {
    for (const key of DEPENDENCY_TABLES) {
      const dependencies = table[key];
      if (!isTable(dependencies)) continue;
      for (const [name, spec] of Object.entries(dependencies)) {
        // `path` is a folder of the repository; `workspace = true` is counted where the workspace declares it;
        // an optional crate is built only with a feature that names it (a run that needs it fails saying so).
        if (isTable(spec) && ('path' in spec || spec.workspace === true || spec.optional === true)) continue;
        crates.add(name);
      }
    }
  }
  return [...crates];
}
