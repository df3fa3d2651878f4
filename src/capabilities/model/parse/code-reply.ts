/**
 * Source code comes back as fenced blocks, never JSON-escaped.
 * `parseCodeReply`: one file, whose path is known (the call's key).
 * `parseFilesReply`: several files, each block labelled with its path (file-labels.ts says how).
 * A reply cut off inside a block, whose blocks run together, or whose blocks leave it unclear which one
 * is the file, is re-asked: a guess could commit the wrong content. Blocks that are plainly not files
 * (a shell command, a usage example: non-file-blocks.ts) are set aside beside blocks that are.
 */
import path from 'node:path';
import type { CodeFile } from '../../../documents/index.ts';
import { checkRelativePath } from '../../../ground/files/index.ts';
import { elidedLine } from './elided-code.ts';
import { type FencedBlock, type ScannedBlock, scanFences } from './fenced-blocks.ts';
import { languagesOf } from './languages.ts';
import { isNonFileBlock } from './non-file-blocks.ts';
import { isRefusal, refusalError } from './refusal.ts';
import { emptyReplyError, fail, ok, type ParseResult, stripThinking } from './result.ts';

export function parseCodeReply(raw: string, filePath: string): ParseResult<CodeFile> {
  const chosen = chooseCodeBlock(raw, filePath);
  if (!chosen.ok) return chosen;
  const notWhole = notWholeFile(chosen.value.content, filePath);
  return notWhole ? fail(notWhole) : chosen;
}

/** Why a block is not a whole file — code left out, or conflict/edit markers — or null when it is one. */
function notWholeFile(content: string, filePath: string): string | null {
  const elided = elidedLine(content, filePath);
  if (elided) return elisionError(filePath, elided);
  const marker = editMarkerLine(content);
  if (marker) {
    return `the block for ${filePath} is a set of changes (line ${marker.line}: "${marker.text}"), not the file; write the whole file, every line of it`;
  }
  return null;
}

/** Merge-conflict or search/replace markers (`<<<<<<< HEAD`, `=======`, `>>>>>>> REPLACE`): an edit, not a file. */
function editMarkerLine(content: string): { line: number; text: string } | null {
  const lines = content.split('\n');
  const opens = lines.findIndex((l) => /^<{7}(?: .*)?$/.test(l));
  if (opens === -1 || !lines.slice(opens + 1).some((l) => /^={7}$/.test(l)) || !lines.some((l) => /^>{7}(?: .*)?$/.test(l))) return null;
  return { line: opens + 1, text: lines[opens]!.trim() };
}

function chooseCodeBlock(raw: string, filePath: string): ParseResult<CodeFile> {
  const wanted = `the full content of ${filePath} in one fenced code block`;
  const text = stripThinking(raw);
  if (text === '') return fail(emptyReplyError(raw, wanted));
  const scan = scanFences(text);
  if (scan.merged) return fail(mergedError(scan.merged, `the whole of ${filePath} in one block, closed with its fence`));
  if (scan.unclosed) return fail(cutOff(wanted));
  if (scan.blocks.length === 0) {
    if (isRefusal(text)) return fail(refusalError(text, wanted));
    return fail(`the reply has no fenced code block; put the full content of ${filePath} in one block`);
  }
  const files = setAside(scan.blocks);
  const chosen = chooseAmong(files, filePath);
  return chosen.ok && files.length < scan.blocks.length ? ok(chosen.value, true) : chosen;
}

function chooseAmong(blocks: readonly FencedBlock[], filePath: string): ParseResult<CodeFile> {
  const wrongFile = (b: FencedBlock) => b.label !== null && isOtherFile(b.label, filePath);
  if (blocks.length === 1) {
    const block = blocks[0]!;
    if (wrongFile(block)) {
      return fail(
        `the reply's code block is labelled ${block.label}, but the file asked for is ${filePath}; reply with the full content of ${filePath} in one block`,
      );
    }
    if (/^(diff|patch)$/i.test(block.lang) && !/\.(diff|patch)$/i.test(filePath)) {
      return fail(`the reply is a diff, not the file; reply with the whole content of ${filePath} in one fenced code block`);
    }
    return ok({ path: filePath, content: block.content });
  }
  // The block labelled with the path; else the one labelled with its file name (`wordfreq.js`).
  const exact = blocks.filter((b) => b.label !== null && normal(b.label) === filePath);
  if (exact.length === 1) return ok({ path: filePath, content: exact[0]!.content }, true);
  const labelled = blocks.filter((b) => b.label !== null && !wrongFile(b));
  if (exact.length === 0 && labelled.length === 1) return ok({ path: filePath, content: labelled[0]!.content }, true);
  if (new Set(blocks.map((b) => b.content)).size === 1 && !blocks.some(wrongFile)) return ok({ path: filePath, content: blocks[0]!.content }, true);
  if (blocks.every(wrongFile)) {
    const others = blocks.map((b) => b.label).join(', ');
    return fail(`the reply has code blocks for ${others} but none for ${filePath}; reply with exactly one block holding the full content of ${filePath}`);
  }
  // A usage example in another language (```sh npm test) beside the file's block is not the file: the
  // one block in the file's language is taken when every other block declares another language or file.
  const languages = languagesOf(filePath);
  const fits = (b: FencedBlock) => languages !== null && languages.has(b.lang.toLowerCase()) && !wrongFile(b);
  const fitting = blocks.filter(fits);
  if (fitting.length === 1 && blocks.every((b) => fits(b) || wrongFile(b) || b.lang !== '')) return ok({ path: filePath, content: fitting[0]!.content }, true);
  return fail(`the reply has ${blocks.length} code blocks; reply with exactly one block holding the full content of ${filePath}`);
}

export function parseFilesReply(raw: string): ParseResult<CodeFile[]> {
  const wanted = 'one fenced code block per file, its path on the line before it';
  const text = stripThinking(raw);
  if (text === '') return fail(emptyReplyError(raw, wanted));
  const scan = scanFences(text);
  if (scan.merged) return fail(mergedError(scan.merged, "every file, each block closed with its fence before the next file's path line"));
  if (scan.unclosed) return fail(cutOff('every file complete'));
  if (scan.blocks.length === 0) {
    if (isRefusal(text)) return fail(refusalError(text, wanted));
    return fail('the reply has no fenced code block; give each file as a path line followed by a fenced block');
  }
  const blocks = setAside(scan.blocks);
  const files: CodeFile[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.label === null) return fail(`code block ${index + 1} has no file path; write the path on the line just before its opening fence`);
    const checked = checkRelativePath(block.label);
    if (!checked.ok) return fail(`code block ${index + 1} has an unsafe path "${block.label}": ${checked.reason}`);
    if (files.some((f) => f.path === checked.path)) return fail(`the file ${checked.path} appears twice; give each file once`);
    const notWhole = notWholeFile(block.content, checked.path);
    if (notWhole) return fail(notWhole);
    files.push({ path: checked.path, content: block.content });
  }
  return ok(files, blocks.length < scan.blocks.length);
}

/** The blocks that may be files: commands and examples set aside, when some block is not one. */
function setAside(blocks: readonly ScannedBlock[]): ScannedBlock[] {
  const files = blocks.filter((b) => !isNonFileBlock(b));
  return files.length > 0 ? files : [...blocks];
}

const mergedError = (why: string, wanted: string): string =>
  `two code blocks run together — ${why} — so one file would hold another's code; reply again with ${wanted} (a file that itself holds fences goes in a block whose fence is longer than any of them: \`\`\`\` around \`\`\`, \`\`\`\`\` around \`\`\`\`)`;

const elisionError = (filePath: string, elided: { line: number; text: string }): string =>
  `${filePath} leaves code out (line ${elided.line}: "${elided.text}"); write the whole file, every line of it`;

const cutOff = (wanted: string): string =>
  `the reply was cut off inside a code block (its closing fence is missing); reply again with ${wanted}, each block closed`;

const normal = (label: string): string => {
  const checked = checkRelativePath(label);
  return checked.ok ? checked.path : label;
};

/** A label naming another file: a different path whose file name differs too (`a.js` for `src/a.js` is the same file). */
const isOtherFile = (label: string, filePath: string): boolean =>
  normal(label) !== filePath && path.posix.basename(normal(label)) !== path.posix.basename(filePath);
