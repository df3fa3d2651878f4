/** `sopworks run`: parse and check the input, run the company, print progress and a summary. */
import path from 'node:path';
import { z } from 'zod';
import { SopworksError } from '../errors.ts';
import { readSettings } from '../config/settings.ts';
import { loadCompany } from '../company/load-company.ts';
import { checkProjectName, prepareProjectDir, projectNameFromSpec } from '../company/prepare-project.ts';
import { runCompany } from '../company/Company.ts';
import { createProvider, parseLlmFlag } from '../llm/select-provider.ts';
import { loadScenario } from '../llm/scenario.ts';
import { Workspace } from '../workspace/Workspace.ts';
import { progressPrinter } from './progress.ts';
import { renderSummary } from './summary.ts';
import { EXIT, type Output } from './output.ts';

export const RunOptions = z.object({
  name: z.string().optional(),
  out: z.string().min(1),
  llm: z.string().optional(),
  model: z.string().min(1).optional(),
  force: z.boolean().default(false),
  sops: z.string().min(1),
  roles: z.string().min(1),
});
export type RunOptions = z.infer<typeof RunOptions>;

const MAX_SPEC = 4000;

export async function runCommand(specWords: string[], rawOptions: unknown, io: Output): Promise<number> {
  const options = RunOptions.parse(rawOptions);
  const settings = readSettings();
  const choice = parseLlmFlag(options.llm, settings);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;

  const spec = (specWords.join(' ').trim() || scenario?.spec || '').trim();
  if (spec === '') {
    throw new SopworksError('SPEC_INVALID', 'The spec is empty.', {
      hint: 'Say what to build in one line: sopworks run "a CLI that counts word frequencies in text files"',
    });
  }
  if (spec.length > MAX_SPEC) {
    throw new SopworksError('SPEC_INVALID', `The spec is ${spec.length} characters long; the limit is ${MAX_SPEC}.`, {
      hint: 'A one-line spec is enough: the Product Manager writes the details into the PRD.',
    });
  }
  const name = checkProjectName(options.name ?? scenario?.name ?? projectNameFromSpec(spec));
  const company = await loadCompany(options.sops, options.roles);
  const provider = await createProvider(choice, scenario, settings, options.model);
  const projectDir = await prepareProjectDir(options.out, name, options.force, (line) => io.err(line));

  const result = await runCompany({
    spec,
    project: name,
    projectDir,
    company,
    provider,
    maxRepairs: settings.maxRepairs,
    onEvent: progressPrinter((line) => io.out(line)),
  });
  const workspace = await Workspace.open(projectDir);
  const [files, history] = await Promise.all([workspace.trackedFiles(), workspace.history()]);
  io.out(renderSummary(result, { files, commits: history.length, model: provider.label }));
  if (result.outcome === 'done') {
    io.out(`\nNext: cd ${path.relative(process.cwd(), projectDir) || projectDir} && git log --stat`);
  }
  return result.outcome === 'done' ? EXIT.done : EXIT.failed;
}
