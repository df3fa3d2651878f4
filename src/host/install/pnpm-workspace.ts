/**
 * pnpm-workspace.yaml, read as data: the workspace patterns (`packages`), the catalogs a `catalog:`
 * dependency takes its range from, and pnpm's settings (pnpm 10 reads most of .npmrc's there, in
 * camelCase) — each judged as a .npmrc setting is (npmrc-settings.ts): what redirects traffic or
 * credentials, or loads code of the repository, overridden; the rest honoured.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { ManifestProblem } from './manifest-problem.ts';
import { type ConfigSetting, overrideOf } from './npmrc-settings.ts';

export const PNPM_WORKSPACE = 'pnpm-workspace.yaml';

export interface PnpmWorkspace {
  /** Workspace patterns; null when the file names none. */
  packages: string[] | null;
  /** `default` for `catalog:`, each named one for `catalog:<name>`: package → range. */
  catalogs: Record<string, Record<string, string>>;
  settings: ConfigSetting[];
}

const Catalog = z.record(z.string(), z.string());
const WorkspaceFile = z
  .object({
    packages: z.array(z.string()).optional(),
    catalog: Catalog.optional(),
    catalogs: z.record(z.string(), Catalog).optional(),
  })
  .passthrough();

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export function readPnpmWorkspace(text: string, scripts: boolean): PnpmWorkspace {
  let parsed: unknown;
  try {
    parsed = parse(text) ?? {};
  } catch (error) {
    throw new ManifestProblem(`${PNPM_WORKSPACE} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const file = WorkspaceFile.safeParse(parsed);
  if (!file.success) throw new ManifestProblem(`${PNPM_WORKSPACE}: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { packages, catalog, catalogs, ...rest } = file.data;
  const lines = text.split('\n');
  const settings = Object.entries(rest).map(([key, value]): ConfigSetting => {
    const why = overrideOf(kebab(key), value, scripts);
    const index = lines.findIndex((line) => new RegExp(`^${key}\\s*:`).test(line));
    const shown = `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
    return {
      file: PNPM_WORKSPACE,
      line: index === -1 ? null : index + 1,
      shown: shown.length > 120 ? `${shown.slice(0, 117)}…` : shown,
      verdict: why ? 'overridden' : 'honoured',
      why: why ?? 'honoured',
    };
  });
  return { packages: packages ?? null, catalogs: { ...(catalog ? { default: catalog } : {}), ...catalogs }, settings };
}
