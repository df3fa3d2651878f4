/**
 * Source code comes back as fenced blocks, never JSON-escaped.
 * `parseCodeReply`: one file, whose path is known (the call's key).
 * `parseFilesReply`: several files, each block labelled with its path on the line before it.
 */
import { checkRelativePath } from '../../workspace/safe-path.ts';
import type { CodeFile } from '../../artifacts/schemas.ts';
import { fencedBlocks } from './fenced-blocks.ts';
import { fail, ok, stripThinking, type ParseResult } from './result.ts';

export function parseCodeReply(raw: string, path: string): ParseResult<CodeFile> {
  const text = stripThinking(raw);
  if (text === '') return fail(`the reply was empty; reply with the full content of ${path} in one fenced code block`);
  const blocks = fencedBlocks(text);
  if (blocks.length === 0) return fail(`the reply has no fenced code block; put the full content of ${path} in one block`);
  if (blocks.length === 1) return ok({ path, content: blocks[0]!.content });
  const labelled = blocks.filter((b) => b.label !== null && checkRelativePath(b.label).ok && normal(b.label) === path);
  if (labelled.length === 1) return ok({ path, content: labelled[0]!.content }, true);
  return fail(`the reply has ${blocks.length} code blocks; reply with exactly one block holding the full content of ${path}`);
}

export function parseFilesReply(raw: string): ParseResult<CodeFile[]> {
  const text = stripThinking(raw);
  if (text === '') return fail('the reply was empty; reply with one fenced code block per file, its path on the line before it');
  const blocks = fencedBlocks(text);
  if (blocks.length === 0) return fail('the reply has no fenced code block; give each file as a path line followed by a fenced block');
  const files: CodeFile[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.label === null) return fail(`code block ${index + 1} has no file path; write the path on the line just before its opening fence`);
    const checked = checkRelativePath(block.label);
    if (!checked.ok) return fail(`code block ${index + 1} has an unsafe path "${block.label}": ${checked.reason}`);
    if (files.some((f) => f.path === checked.path)) return fail(`the file ${checked.path} appears twice; give each file once`);
    files.push({ path: checked.path, content: block.content });
  }
  return ok(files);
}

const normal = (label: string): string => {
  const checked = checkRelativePath(label);
  return checked.ok ? checked.path : label;
};
