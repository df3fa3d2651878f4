/**
 * A scenario's reply as the chaos layer sees it before spoiling it: what it holds, read by the same
 * parsers the gateway uses. A reply the parsers do not take as it is (a scenario's deliberately broken
 * reply, say) is left alone — it already tests the repair it was written for.
 */
import type { z } from 'zod';
import { parseCodeReply, parseFilesReply } from '../parse/code-reply.ts';
import { parseEditsReply } from '../parse/edits-reply.ts';
import { scanFences } from '../parse/fenced-blocks.ts';
import { parseJsonReply } from '../parse/json-reply.ts';
import type { CompletionRequest } from '../provider.ts';

/** A file as the parsers read it out of a reply. */
interface CodeFile {
  path: string;
  content: string;
}

export type CleanReply =
  | { kind: 'json'; text: string; data: unknown; schema: z.ZodType; name: string }
  | { kind: 'code'; text: string; file: CodeFile; lang: string }
  | { kind: 'files'; text: string; files: (CodeFile & { lang: string })[] }
  | { kind: 'edits'; text: string; path: string }
  /** A reply whose shape is not known (no output given): only what any reply can suffer. */
  | { kind: 'text'; text: string };

export function readCleanReply(text: string, request: CompletionRequest): CleanReply | null {
  const output = request.output;
  if (!output) return { kind: 'text', text };
  if (output.kind === 'json') {
    const parsed = parseJsonReply(text, output.schema);
    if (!parsed.ok || parsed.repaired) return null;
    return { kind: 'json', text, data: parsed.value, schema: output.schema, name: request.jsonSchema?.name ?? 'result' };
  }
  if (output.kind === 'code') {
    const parsed = parseCodeReply(text, output.path);
    const blocks = scanFences(text).blocks;
    if (!parsed.ok || parsed.repaired || blocks.length !== 1) return null;
    return { kind: 'code', text, file: parsed.value, lang: blocks[0]!.lang };
  }
  if (output.kind === 'files') {
    const parsed = parseFilesReply(text);
    const blocks = scanFences(text).blocks;
    if (!parsed.ok || parsed.repaired || blocks.length !== parsed.value.length) return null;
    return { kind: 'files', text, files: parsed.value.map((file, i) => ({ ...file, lang: blocks[i]!.lang })) };
  }
  const parsed = parseEditsReply(text, output.path);
  return parsed.ok ? { kind: 'edits', text, path: output.path } : null;
}

/** A files reply written the plain way: each file's path on the line before its block. */
export function filesReplyText(files: readonly { path: string; content: string; lang: string }[], fence = '```'): string {
  return files.map((f) => `${f.path}\n${fence}${f.lang}\n${f.content}${f.content.endsWith('\n') ? '' : '\n'}${fence}\n`).join('\n');
}

/** One file's block, as a code reply sends it. */
export function codeBlock(content: string, lang: string, fence = '```', info = lang): string {
  return `${fence}${info}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}`;
}
