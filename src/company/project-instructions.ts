/**
 * The instructions a run's roles follow besides their documents: the person's own (`--instructions
 * FILE`) and, in a change run, the repository's — AGENTS.md (the cross-tool convention), CONVENTIONS.md,
 * the coding rules of CONTRIBUTING.md and .editorconfig. Each is bounded in tokens, so a long file
 * cannot crowd out the work; what is cut is said. The text is kept in run.json, so a resumed run shows
 * the roles exactly what they saw before (the work tree may have changed meanwhile).
 *
 * The repository's files are untrusted: only regular files are read (a symbolic link could point at any
 * file of this machine, which would then go to the model), at most READ_BYTES of each, and text only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { countTextTokens } from '../capabilities/model/index.ts';
import { SopworksError } from '../ground/errors.ts';

/** The most tokens of instructions in a prompt, and of any one source. */
export const INSTRUCTIONS_TOKENS = 2_000;
export const SOURCE_TOKENS = 1_000;
const READ_BYTES = 64 * 1024;
/** Less room than this left for a source: it is named, not shown (a line or two of it would mislead). */
const LEAST_TOKENS = 50;

/** The repository's instruction files, in the order they are shown; the first of each group that exists. */
const REPOSITORY_SOURCES: readonly { paths: readonly string[]; codingRulesOnly?: boolean }[] = [
  { paths: ['AGENTS.md'] },
  { paths: ['CONVENTIONS.md', 'docs/CONVENTIONS.md'] },
  { paths: ['CONTRIBUTING.md', '.github/CONTRIBUTING.md', 'docs/CONTRIBUTING.md'], codingRulesOnly: true },
  { paths: ['.editorconfig'] },
];

/** A CONTRIBUTING.md section about code, not about the project's process (issues, pull requests, releases). */
const CODING_HEADING = /\b(cod(e|ing)|style|conventions?|lint(ing)?|format(ting)?|guidelines?|naming|tests?|testing|types?)\b/i;

interface Source {
  label: string;
  text: string;
}

/** The person's instructions file, read now so a wrong path stops the command before anything is written. */
export async function readInstructionsFile(file: string): Promise<string> {
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new SopworksError('USAGE', `Cannot read the instructions file ${file}: ${error.code ?? error.message}.`, {
      hint: 'Give --instructions the path of a text (Markdown) file, e.g. --instructions AGENTS.md.',
    });
  });
  if (text.includes('\0')) {
    throw new SopworksError('USAGE', `The instructions file ${file} is not text.`, { hint: 'Give --instructions a Markdown or plain-text file.' });
  }
  if (text.trim() === '')
    throw new SopworksError('USAGE', `The instructions file ${file} is empty.`, { hint: 'Write the instructions in it, or leave --instructions out.' });
  return text;
}

/**
 * The instructions of a run, as Markdown sections (`### From <source>:`), or null when there are none.
 * `repoDir`: a change's work tree (at its base), whose instruction files are read; null for a new project.
 */
export async function projectInstructions(repoDir: string | null, given: string | null): Promise<string | null> {
  const sources: Source[] = [];
  if (given !== null) sources.push({ label: 'Instructions given for this run', text: given });
  if (repoDir !== null) sources.push(...(await repositorySources(repoDir)));
  return boundSources(sources);
}

async function repositorySources(repoDir: string): Promise<Source[]> {
  const found: Source[] = [];
  for (const source of REPOSITORY_SOURCES) {
    for (const relative of source.paths) {
      const text = await readRegularText(path.join(repoDir, relative));
      if (text === null) continue;
      const kept = source.codingRulesOnly ? codingRules(text) : text;
      if (kept.trim() !== '') found.push({ label: source.codingRulesOnly ? `${relative} (its coding rules)` : relative, text: kept });
      break;
    }
  }
  return found;
}

/** A regular file's text (its first READ_BYTES); null for a link, a folder, a binary or a missing file. */
async function readRegularText(file: string): Promise<string | null> {
  const stat = await fs.lstat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  const handle = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.alloc(Math.min(stat.size, READ_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return text.includes('\0') ? null : text;
  } finally {
    await handle.close();
  }
}

/** The sections of a Markdown file whose heading is about code, each with its subsections. */
export function codingRules(markdown: string): string {
  const kept: string[] = [];
  let keepingBelow: number | null = null;
  for (const line of markdown.split('\n')) {
    const [, hashes, title] = /^(#{1,6})\s+(.*)$/.exec(line) ?? [];
    if (hashes !== undefined && title !== undefined) {
      if (keepingBelow !== null && hashes.length <= keepingBelow) keepingBelow = null;
      if (keepingBelow === null && CODING_HEADING.test(title)) keepingBelow = hashes.length;
    }
    if (keepingBelow !== null) kept.push(line);
  }
  return kept.join('\n').trim();
}

/** Every source within SOURCE_TOKENS and all within INSTRUCTIONS_TOKENS, cut at a line; what is cut is said. */
function boundSources(sources: readonly Source[]): string | null {
  let left = INSTRUCTIONS_TOKENS;
  const sections: string[] = [];
  for (const source of sources) {
    const heading = `### From ${source.label}:`;
    const budget = Math.min(SOURCE_TOKENS, left);
    const lines = source.text.trim().split('\n');
    const shown: string[] = [];
    let used = 0;
    for (const line of lines) {
      const cost = countTextTokens(line) + 1;
      if (budget < LEAST_TOKENS || used + cost > budget) break;
      shown.push(line);
      used += cost;
    }
    if (shown.length === 0) {
      sections.push(`${heading}\n(not shown: no room left for it in the instructions' ${INSTRUCTIONS_TOKENS} tokens)`);
      continue;
    }
    const cut = lines.length - shown.length;
    const more = cut > 0 ? `\n(… ${cut} more lines of ${source.label} not shown: the instructions are bounded)` : '';
    sections.push(`${heading}\n${shown.join('\n')}${more}`);
    left -= used;
  }
  return sections.length === 0 ? null : sections.join('\n\n');
}
