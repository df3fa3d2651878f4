/**
 * A runner form as the sandbox runs it, with nothing fetched at test time: a binary of the project's
 * (`npx vitest run`, `pnpm exec vitest`, `yarn vitest`) is started from node_modules/.bin — so neither
 * npx's registry lookup nor pnpm or yarn themselves are needed — and a script run by pnpm or yarn is run
 * by npm, which runs package.json scripts the same way (its node_modules/.bin on PATH). Pure.
 */
import { type ProjectRunners, runnersFirst, someNames, workspaceOf } from './project-runners.ts';
import { runnerForm } from './runner-form.ts';

export type LocalCommand = { argv: string[]; note: string | null } | { refused: string };

/**
 * A script of one package of a monorepo, whichever manager's form named it: npm runs it in the package's
 * folder (`--prefix`), with every node_modules/.bin from there up to the repository's on its PATH — the
 * package's own binaries and those hoisted to the root — as pnpm and yarn would.
 */
function inWorkspace(named: string, script: string, args: readonly string[], runners: ProjectRunners): LocalCommand {
  const workspace = workspaceOf(runners, named);
  if (!workspace) {
    const known = (runners.workspaces ?? []).map((w) => w.name ?? w.folder);
    return { refused: `"${named}" is not a package of this repository (its packages: ${known.slice(0, 12).join(', ') || 'none: it declares no workspaces'})` };
  }
  if (!workspace.scripts.includes(script))
    return { refused: `${workspace.folder}/package.json has no script "${script}" (its scripts: ${workspace.scripts.join(', ') || 'none'})` };
  const run = ['npm', 'run', script, '--prefix', workspace.folder, ...(args.length > 0 ? ['--', ...args] : [])];
  return { argv: run, note: `run as ${run.join(' ')}` };
}

export function localCommand(argv: readonly string[], runners: ProjectRunners): LocalCommand {
  const form = runnerForm(argv, runners.scripts);
  if (form?.kind === 'script' && form.workspace !== undefined) return inWorkspace(form.workspace, form.script, form.args, runners);
  if (!form || (form.kind === 'script' && argv[0] === 'npm')) return { argv: [...argv], note: null };
  if (form.kind === 'script') {
    if (!runners.scripts.includes(form.script))
      return { refused: `package.json has no script "${form.script}" (its scripts: ${runners.scripts.join(', ') || 'none'})` };
    const run = ['npm', 'run', form.script, ...(form.args.length > 0 ? ['--', ...form.args] : [])];
    return { argv: run, note: `run as ${run.join(' ')}` };
  }
  if (!runners.installed || !runners.bins.includes(form.bin)) {
    return {
      refused: `"${form.bin}" is not among the binaries the repository's installed dependencies provide (node_modules/.bin${runners.installed ? `: ${someNames(runnersFirst(runners.bins)) || 'empty'}` : ' does not exist: nothing was installed'}); sopworks fetches nothing at test time`,
    };
  }
  const run = [`node_modules/.bin/${form.bin}`, ...form.args];
  return { argv: run, note: `run as ${run.join(' ')}` };
}
