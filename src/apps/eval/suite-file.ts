/**
 * An evaluation suite file (docs/eval.md): the specs to run — new projects, or change tasks on a
 * repository at a commit — each optionally with a scripted scenario (so a suite runs offline), an entry
 * point and checks of its own. Every problem is reported at
 * file:line before anything runs — a YAML slip, an unknown key, a scenario that does not load, two
 * specs with one name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadScenario, type Scenario } from '../../capabilities/model/index.ts';
import { type Diagnostic, formatDiagnostic, loadYamlChecked, locatorOf, sopError } from '../../engine/sop/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { PROJECT_NAME } from '../../ground/files/index.ts';

const Command = z.array(z.string().min(1)).min(1, 'give the command as a list: [node, src/cli.js, --help]');

const Check = z
  .object({
    /** What the check shows, as a reader of the table would say it. */
    name: z.string().min(1),
    /** A command run in the finished project (sandboxed); the check passes when it exits 0. */
    run: Command,
  })
  .strict();

/** A change task: `sopworks change` on a repository at a commit, the spec being the change request. */
const ChangeTask = z
  .object({
    /** A folder relative to the suite file: a git repository, or a plain folder committed as it is (one dated commit). */
    repo: z.string().min(1).optional(),
    /**
     * Or a public repository by its URL (https), cloned when the suite runs, network permitting: its code
     * is never kept beside the suite — a real repository named, not copied.
     */
    url: z
      .string()
      .regex(/^https:\/\/[^\s]+$/, 'an https URL of a git repository')
      .optional(),
    /** The commit (branch, tag or hash) of a git repository the change starts from; its HEAD when absent. A `url` needs a full commit hash: pinned. */
    commit: z.string().min(1).optional(),
  })
  .strict()
  .refine((task) => (task.repo === undefined) !== (task.url === undefined), 'give either `repo:` (a folder) or `url:` (a repository to clone), not both')
  .refine(
    (task) => task.url === undefined || /^[0-9a-f]{40}$/.test(task.commit ?? ''),
    'a `url:` needs `commit:`, a full 40-hex commit hash, so the task starts from the same tree every time',
  );

const SuiteSpec = z
  .object({
    /** The project folder's name, unique in the suite. */
    name: z.string().regex(PROJECT_NAME, 'must be lower-case letters, digits, dots, dashes or underscores, starting with a letter or digit'),
    /** What to build; a scenario may supply it. */
    spec: z.string().min(1).max(4000).optional(),
    /** A scripted scenario, relative to the suite file: the spec runs offline. Without one, the configured model. */
    scenario: z.string().min(1).optional(),
    /** The command that starts the program (run sandboxed): whether it runs is the spec's executability. */
    entry: Command.optional(),
    checks: z.array(Check).default([]),
    /** A change task instead of a new project: the spec changes this repository (docs/eval.md, "Change tasks"). */
    change: ChangeTask.optional(),
  })
  .strict();

export const SuiteFile = z
  .object({
    name: z.string().regex(PROJECT_NAME, 'must be lower-case letters, digits, dots, dashes or underscores'),
    description: z.string().optional(),
    /** How many runs at once (`--concurrency` overrides it). */
    concurrency: z.number().int().min(1).max(64).default(2),
    specs: z.array(SuiteSpec).min(1, 'list at least one spec'),
  })
  .strict();

export type ChangeSource = { repo: string; commit: string | null } | { url: string; commit: string };

export interface SpecDefinition {
  name: string;
  spec: string;
  /** The absolute scenario file, or null for the configured model. */
  scenario: string | null;
  entry: string[] | null;
  checks: { name: string; run: string[] }[];
  /**
   * A change task: the absolute repository folder, or a URL to clone, and the commit to start from (null:
   * its HEAD); null for a new project.
   */
  change?: ChangeSource | null;
}

export interface Suite {
  file: string;
  name: string;
  description: string | null;
  concurrency: number;
  specs: SpecDefinition[];
}

/** Reads and checks a suite file, its scenarios included; throws one error listing every problem. */
export async function loadSuite(file: string): Promise<Suite> {
  const { source, value, diagnostics } = await loadYamlChecked(file, SuiteFile);
  const problems: Diagnostic[] = [...diagnostics];
  const specs: SpecDefinition[] = [];
  if (value && source) {
    const where = locatorOf(source);
    const seen = new Set<string>();
    for (const [index, entry] of value.specs.entries()) {
      if (seen.has(entry.name))
        problems.push(
          sopError(
            where(['specs', index, 'name']),
            `specs.${index}.name: "${entry.name}" is used by an earlier spec; each spec needs its own name (it is its project folder)`,
          ),
        );
      seen.add(entry.name);
      let scenario: Scenario | null = null;
      const scenarioFile = entry.scenario ? path.resolve(path.dirname(file), entry.scenario) : null;
      if (scenarioFile) {
        try {
          scenario = await loadScenario(scenarioFile);
        } catch (error) {
          const message = SopworksError.isInstance(error) ? error.message : String(error);
          problems.push(sopError(where(['specs', index, 'scenario']), `specs.${index}.scenario: ${message.replace(/\n/g, ' ')}`));
        }
      }
      const spec = (entry.spec ?? scenario?.spec ?? '').trim();
      if (spec === '' && (scenario !== null || scenarioFile === null)) {
        problems.push(
          sopError(where(['specs', index]), `specs.${index}: no spec: give \`spec: <what to build>\`${scenarioFile ? ' (the scenario has none)' : ''}`),
        );
      }
      const change: ChangeSource | null = !entry.change
        ? null
        : entry.change.url
          ? { url: entry.change.url, commit: entry.change.commit! }
          : { repo: path.resolve(path.dirname(file), entry.change.repo!), commit: entry.change.commit ?? null };
      if (change && 'repo' in change && !fs.statSync(change.repo, { throwIfNoEntry: false })?.isDirectory()) {
        problems.push(sopError(where(['specs', index, 'change', 'repo']), `specs.${index}.change.repo: ${change.repo} is not a folder`));
      }
      specs.push({ name: entry.name, spec, scenario: scenarioFile, entry: entry.entry ?? null, checks: entry.checks, change });
    }
  }
  if (problems.length > 0) {
    throw new SopworksError(
      'CONFIG_INVALID',
      `The suite file has ${problems.length} problem(s); nothing was run:\n${problems.map(formatDiagnostic).join('\n')}`,
      {
        hint: 'Fix each line named above (docs/eval.md describes the suite format).',
      },
    );
  }
  return { file: path.resolve(file), name: value!.name, description: value!.description ?? null, concurrency: value!.concurrency, specs };
}
