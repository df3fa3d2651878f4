/**
 * How real models spoil source code replies. Kept meaning: the path written another way (a bold line,
 * a heading, `File:`, a sentence, the fence's info string), another fence, prose around the code, a shell
 * command beside it, a block left open before the next file's path line — each must commit the same
 * files. Lost meaning: code elided with a comment, a path outside the project, two versions of a file,
 * a block never closed — each must be re-asked. Null where a spoiling cannot apply.
 */
import path from 'node:path';
import { type CleanReply, codeBlock, filesReplyText } from './clean-reply.ts';
import type { Draws } from './draws.ts';

type Code = Extract<CleanReply, { kind: 'code' | 'files' }>;
type File = { path: string; content: string; lang: string };
export type CodeSpoiler = (reply: Code, draws: Draws) => string | null;

const filesOf = (reply: Code): File[] => (reply.kind === 'code' ? [{ ...reply.file, lang: reply.lang }] : reply.files);

/** The same files, written back as the reply's kind writes them, with each file's block made by `block`. */
const rewrite = (reply: Code, block: (file: File) => string): string =>
  reply.kind === 'code' ? block(filesOf(reply)[0]!) : filesOf(reply).map(block).join('\n\n');

/**
 * Label styles real replies use, each putting the path outside the file's content: the fence's info
 * string, a decorated line, and — as recorded in ChatDev's logs of real GPT replies — a sentence that
 * introduces the file, a numbered line with a description, a FILENAME/LANGUAGE/DOCSTRING/CODE header,
 * a description paragraph between the path and its block.
 */
const LABELS: ((file: File, fence: (info: string) => string) => string)[] = [
  (f, fence) => `**${f.path}**\n${fence(f.lang)}`,
  (f, fence) => `Let's start with the \`${f.path}\` file:\n\n${fence(f.lang)}`,
  (f, fence) => `Now, let's create the ${f.path} file:\n\n${fence(f.lang)}`,
  (f, fence) => `Next, we will create the ${f.path} file, which holds this part of the project.\n\n${fence(f.lang)}`,
  (f, fence) => `Here is the updated \`${f.path}\` file:\n\n${fence(f.lang)}`,
  (f, fence) => `Updated ${f.path}\n${fence(f.lang)}`,
  (f, fence) => `**Main file: ${f.path}**\n\n${fence(f.lang)}`,
  (f, fence) => `1. ${f.path}: This file implements its part of the design.\n\n${fence(f.lang)}`,
  (f, fence) => `${f.path}\n\nThis file contains its part of the design, as the task describes.\n\n${fence(f.lang)}`,
  (f, fence) => `FILENAME: ${f.path}\nLANGUAGE: ${f.lang || 'text'}\nDOCSTRING: Its part of the design.\nCODE:\n${fence(f.lang)}`,
  (f, fence) => `### ${f.path}\n\n${fence(f.lang)}`,
  (f, fence) => `File: \`${f.path}\`\n${fence(f.lang)}`,
  (f, fence) => `Here is the complete \`${f.path}\`:\n\n${fence(f.lang)}`,
  (f, fence) => `1. \`${f.path}\` (${f.lang || 'the file'})\n${fence(f.lang)}`,
  (f, fence) => fence(`${f.lang || 'text'} ${f.path}`),
  (f, fence) => fence(`${f.lang || 'text'}:${f.path}`),
  (f, fence) => fence(`${f.lang || 'text'} title="${f.path}"`),
];

export const labelStyle: CodeSpoiler = (reply, draws) => {
  const style = draws.pick(LABELS);
  return rewrite(reply, (f) => style(f, (info) => codeBlock(f.content, f.lang, '```', info)));
};

/** Files whose content holds a fence line cannot change their own fence without changing their content. */
const holdsFence = (reply: Code): boolean => filesOf(reply).some((f) => /^\s*(?:`{3,}|~{3,})/m.test(f.content));

export const otherFence: CodeSpoiler = (reply, draws) => {
  if (holdsFence(reply)) return null;
  const fence = draws.pick(['~~~', '````']);
  if (reply.kind === 'code') return codeBlock(reply.file.content, reply.lang, fence);
  return filesReplyText(reply.files, fence);
};

export const proseAroundCode: CodeSpoiler = (reply, draws) => {
  const lead = draws.pick([
    'Sure! Here is the implementation.',
    "Here's the code, following the design:",
    'Below is the complete implementation, with every function written out.',
  ]);
  const trailer = draws.pick([
    'This implementation handles the edge cases described in the task.',
    'Each function is small and does one thing, as the design asks.',
  ]);
  return `${lead}\n\n${reply.kind === 'code' ? reply.text : filesReplyText(reply.files)}\n\n${trailer}`;
};

export const shellCommandBeside: CodeSpoiler = (reply, draws) => {
  const command = draws.pick([
    ['Run the tests with:', 'sh', 'npm test'],
    ['To try it:', 'bash', '$ node src/cli.js --help'],
    ['Install the dependencies first:', 'shell', 'npm install'],
  ] as const);
  const body = reply.kind === 'code' ? reply.text : filesReplyText(reply.files);
  return `${body}\n\n${command[0]}\n\n\`\`\`${command[1]}\n${command[2]}\n\`\`\``;
};

/** A block left open right before the next file's path line: plain to read, and recovered there. */
export const openFenceBeforeNextFile: CodeSpoiler = (reply, draws) => {
  if (reply.kind !== 'files' || reply.files.length < 2 || holdsFence(reply)) return null;
  // The next file's fence must say its language: a bare one would read as the open block's closer.
  const candidates = reply.files.flatMap((_, i) => (i + 1 < reply.files.length && reply.files[i + 1]!.lang !== '' ? [i] : []));
  if (candidates.length === 0) return null;
  const open = draws.pick(candidates);
  return reply.files.map((f, i) => `${f.path}\n\`\`\`${f.lang}\n${f.content}${f.content.endsWith('\n') ? '' : '\n'}${i === open ? '' : '```\n'}`).join('\n');
};

/** The last block never closed, the reply ending normally: it cannot be told from a cut-off one. */
export const openFenceAtEnd: CodeSpoiler = (reply) => {
  if (holdsFence(reply)) return null;
  const text = rewrite(reply, (f) => (reply.kind === 'files' ? `${f.path}\n` : '') + codeBlock(f.content, f.lang));
  return text.replace(/\n```\s*$/, '\n');
};

const COMMENT: Record<string, string> = {
  js: '//',
  mjs: '//',
  cjs: '//',
  ts: '//',
  jsx: '//',
  tsx: '//',
  java: '//',
  go: '//',
  rs: '//',
  c: '//',
  cpp: '//',
  cs: '//',
  py: '#',
  rb: '#',
  sh: '#',
  yaml: '#',
  yml: '#',
  toml: '#',
};

/** Placeholders as real replies write them; `{c}` is the language's comment opening. */
const ELISIONS = [
  '{c} ... rest of the code unchanged',
  '{c} ... existing code ...',
  '{c} ... parsing loop as before ...',
  '{c} ... same validation as above ...',
  '{c} ... (helper functions unchanged) ...',
  '{c} (implementation omitted for brevity)',
  '{c} rest of the file stays the same',
  '{c} ...',
];

/** Lines of a file replaced by a comment saying they were left out. */
export const elidedCode: CodeSpoiler = (reply, draws) => {
  const files = filesOf(reply).filter((f) => COMMENT[path.posix.extname(f.path).slice(1)] && f.content.trim().split('\n').length >= 4);
  if (files.length === 0) return null;
  const target = draws.pick(files);
  const lines = target.content.replace(/\n$/, '').split('\n');
  const from = draws.int(1, lines.length - 3);
  const to = draws.int(from + 1, lines.length - 1);
  const indent = /^\s*/.exec(lines[from]!)![0];
  const marker = indent + draws.pick(ELISIONS).replace('{c}', COMMENT[path.posix.extname(target.path).slice(1)]!);
  const content = [...lines.slice(0, from), marker, ...lines.slice(to)].join('\n') + '\n';
  return rewrite(reply, (f) => (reply.kind === 'files' ? `${f.path}\n` : '') + codeBlock(f.path === target.path ? content : f.content, f.lang));
};

/** A file placed outside the project: never written, always re-asked. */
export const pathOutside: CodeSpoiler = (reply, draws) => {
  const files = filesOf(reply);
  const target = draws.pick(files);
  const outside = draws.pick([`../${target.path}`, `/tmp/${path.posix.basename(target.path)}`, `../../outside/${target.path}`]);
  if (reply.kind === 'code') {
    // The one file asked for, labelled as a file elsewhere with another name: not the file asked for.
    const elsewhere = draws.pick([
      `../../outside/other-${path.posix.basename(target.path)}`,
      `../${path.posix.dirname(target.path)}/copy-${path.posix.basename(target.path)}`,
    ]);
    return `${elsewhere}\n${codeBlock(target.content, target.lang)}`;
  }
  return files.map((f) => `${f.path === target.path ? outside : f.path}\n${codeBlock(f.content, f.lang)}`).join('\n\n');
};

/** Two versions of a file: which one is meant is not for the parser to guess. */
export const twoVersions: CodeSpoiler = (reply, draws) => {
  const files = filesOf(reply);
  const target = draws.pick(files);
  const comment = COMMENT[path.posix.extname(target.path).slice(1)];
  if (!comment) return null;
  const variant = `${comment} A more compact variant\n${target.content}`;
  if (reply.kind === 'code') {
    return `${codeBlock(target.content, target.lang)}\n\nAlternatively, a more compact version:\n\n${codeBlock(variant, target.lang)}`;
  }
  return `${filesReplyText(files)}\n${target.path}\n${codeBlock(variant, target.lang)}\n`;
};
