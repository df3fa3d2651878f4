/**
 * A change of an existing repository, prepared: the repository and the request checked (exit 2 before
 * anything is written), the toolchains its tests need, the change's name and folder (outside the
 * repository), what the repository would have git run named, then the company and the model as a new
 * run checks them (prepare-company.ts). `execute` makes the change's branch in its own work tree under
 * --out and runs the change company there; the user's branch, work tree, index and untracked files are
 * never touched.
 */
import path from 'node:path';
import { changeEndLines, checkRepository, checkToolchains, openWorktree, repositoryTampering } from '../capabilities/change/index.ts';
import { loadScenario, parseLlmFlag } from '../capabilities/model/index.ts';
import { readInstructionsFile, startRun } from '../company/index.ts';
import { checkProjectDir, makeWayForProject } from '../engine/run/index.ts';
import { SopworksError } from '../ground/errors.ts';
import { checkProjectName, slugOf } from '../ground/files/index.ts';
import { ChangeAsk } from './change-ask.ts';
import { type PreparedRun, settingsOf } from './execute.ts';
import type { SessionHooks } from './hooks.ts';
import { chaosOf, withChaos } from './model-choice.ts';
import { parseRequest } from './parse-request.ts';
import { gatesOf, prepareCompany } from './prepare-company.ts';
import { readSpecInput } from './spec-input.ts';

export async function prepareChange(asked: ChangeAsk, hooks: SessionHooks): Promise<PreparedRun> {
  const ask = parseRequest(ChangeAsk, asked, 'change');
  const gates = gatesOf(ask.approve, 'change');
  const settings = settingsOf(hooks);
  const choice = withChaos(parseLlmFlag(ask.llm, settings), chaosOf(ask));
  const given = await readSpecInput({ given: ask.request, file: ask.specFile, readStdin: hooks.readStdin }, 'request');
  const instructions = ask.instructions === undefined ? null : await readInstructionsFile(ask.instructions);
  const scenario = choice.kind === 'scripted' ? await loadScenario(choice.file) : null;
  const request = ((given ?? '').trim() || scenario?.spec || '').trim();

  const target = await checkRepository(ask.repo, { request, base: ask.base, branch: ask.branch, force: ask.force });
  await checkToolchains(target.repo, target.base);
  const name = checkProjectName(ask.name ?? `${slugOf(path.basename(target.repo), 'repo')}-${target.slug}`.slice(0, 64));
  const folder = await checkProjectDir(ask.out, name, ask.force);
  if (folder.projectDir === target.repo || folder.projectDir.startsWith(target.repo + path.sep)) {
    throw new SopworksError(
      'USAGE',
      `The change's work tree ${folder.projectDir} would be inside the repository ${target.repo}, whose work tree is never touched.`,
      { hint: 'Choose a folder outside the repository with --out <dir>.' },
    );
  }
  // What the repository would have git run is named now; none of it runs (git-hardening.ts).
  for (const line of await repositoryTampering(target.repo, target.base)) hooks.lines.err(`warning: ${line}`);
  const { company, policy, provider, llm, budget } = await prepareCompany(ask, { choice, scenario, settings, text: request }, hooks);

  const review = `git -C ${target.repo} diff ${target.base.slice(0, 12)}...${target.branch}`;
  return {
    command: 'change',
    projectDir: folder.projectDir,
    provider,
    llm,
    settings,
    flags: ask,
    next: [review],
    // How to review, merge and remove it — or, when the run did not end done, not to merge it.
    after: (run) => changeEndLines(run),
    start: async (basics, { lines }) => {
      const projectDir = await makeWayForProject(folder, (line) => lines.err(line));
      await openWorktree(target, projectDir);
      lines.out(
        `Change of ${target.repo} on branch ${target.branch} from ${target.baseName} (${target.base.slice(0, 12)}), in its own work tree ${projectDir}`,
      );
      return startRun({
        ...basics,
        project: name,
        instructions,
        projectDir,
        company,
        provider,
        llm,
        policy,
        budget,
        approvals: { gates, yes: ask.yes, clarify: ask.clarify },
        change: {
          request,
          record: {
            repo: target.repo,
            base: target.base,
            baseName: target.baseName,
            branch: target.branch,
            documents: ask.commitDocuments ? 'commit' : 'run-folder',
            squash: ask.squash,
          },
        },
      });
    },
  };
}
