/**
 * `sopworks change <repo> "<request>"`: checks the repository and the request (exit 2 before anything is
 * written), makes the change's branch in its own work tree under --out, and runs the change company
 * (sops/change/) there. The user's branch, work tree, index and untracked files are never touched.
 */
import path from 'node:path';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { readSettings } from '../../capabilities/model/index.ts';
import { loadCompany } from '../../company/index.ts';
import { formatDiagnostic } from '../../engine/sop/index.ts';
import { checkClarify, prepareProjectDir } from '../../engine/run/index.ts';
import { checkProjectName } from '../../ground/files/index.ts';
import { createProvider, parseLlmFlag } from '../../capabilities/model/index.ts';
import { loadScenario } from '../../capabilities/model/index.ts';
import { readSpecInput } from './spec-input.ts';
import { readInstructionsFile } from '../../company/index.ts';
import type { Output } from './output.ts';
import { llmRecordOf } from './llm-record.ts';
import { chaosOf, withChaos } from './chaos-option.ts';
import { providerHooks } from './provider-hooks.ts';
import { parseOptions } from './parse-options.ts';
import { StartFlags } from './run-flags.ts';
import { checkBudgetPrice, priceOf } from './price-of.ts';
import { openRunSession, startInSession } from './run-session.ts';
import type { LlmRecord } from '../../company/index.ts';
import { loadPolicy } from '../../capabilities/policy/index.ts';
import { checkRepository } from '../../capabilities/change/index.ts';
import { openWorktree } from '../../capabilities/change/index.ts';
import { checkToolchains } from '../../capabilities/change/index.ts';
import { repositoryTampering } from '../../capabilities/change/index.ts';
import { sopPrompts } from '../../company/index.ts';

const ChangeOptions = z.object({
  ...StartFlags,
  base: z.string().min(1).optional(),
  branch: z.string().min(1).optional(),
});

export async function changeCommand(repoArg: string, requestWords: string[], rawOptions: unknown, terminal: Output): Promise<number> {
  const options = parseOptions(ChangeOptions, rawOptions, 'change');
  const session = openRunSession('change', options, terminal);
  const io = session.output.human;
  const settings = readSettings();
  const choice = withChaos(parseLlmFlag(options.llm, settings), chaosOf(options));
  const given = await readSpecInput({ words: requestWords, file: options.specFile }, 'request');
  const instructions = options.instructions === undefined ? null : await readInstructionsFile(options.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;
  const request = ((given ?? '').trim() || scenario?.spec || '').trim();

  // Everything is checked before anything is written.
  const target = await checkRepository(repoArg, { request, base: options.base, branch: options.branch, force: options.force });
  await checkToolchains(target.repo, target.base);
  const name = checkProjectName(
    options.name ??
      `${
        path
          .basename(target.repo)
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, '-')
          .replace(/^[^a-z0-9]+/, '') || 'repo'
      }-${target.slug}`.slice(0, 64),
  );
  const out = path.resolve(options.out);
  const projectDir = path.join(out, name);
  if (projectDir === target.repo || projectDir.startsWith(target.repo + path.sep)) {
    throw new SopworksError('USAGE', `The change's work tree ${projectDir} would be inside the repository ${target.repo}, whose work tree is never touched.`, {
      hint: 'Choose a folder outside the repository with --out <dir>.',
    });
  }
  // What the repository would have git run is named now; none of it runs (git-hardening.ts).
  for (const line of await repositoryTampering(target.repo, target.base)) io.err(`warning: ${line}`);
  const company = await loadCompany(options.sops, options.roles);
  for (const warning of company.warnings) io.err(formatDiagnostic(warning));
  checkClarify(company, options.clarify);
  const policy = await loadPolicy(options.sops);
  const provider = await createProvider(choice, scenario, settings, options.model, providerHooks(io), sopPrompts(company, request));
  const llm: LlmRecord = llmRecordOf(choice, provider, options.model, settings);
  checkBudgetPrice({ usd: options.budget, tokens: options.maxTokens }, priceOf(llm, settings));
  await prepareProjectDir(options.out, name, options.force, (line) => io.err(line));
  await openWorktree(target, projectDir);
  io.out(`Change of ${target.repo} on branch ${target.branch} from ${target.baseName} (${target.base.slice(0, 12)}), in its own work tree ${projectDir}`);

  const review = `git -C ${target.repo} diff ${target.base.slice(0, 12)}...${target.branch}`;
  const change = { record: { repo: target.repo, base: target.base, baseName: target.baseName, branch: target.branch } };
  const code = await startInSession(session, settings, { spec: request, project: name, instructions, projectDir, company, provider, llm, policy }, { change }, [
    review,
  ]);
  io.out(`Review the change: ${review}   (merge it with: git merge ${target.branch})`);
  return code;
}
