/**
 * Reads a YAML file and validates it with zod; every error names file:line:column.
 */
import fs from 'node:fs/promises';
import { type Document, isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { SopworksError } from '../errors.ts';

export interface YamlSource {
  file: string;
  document: Document;
  lines: LineCounter;
}

export async function readYaml(file: string): Promise<YamlSource> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new SopworksError('SOP_INVALID', `${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const first = document.errors[0];
  if (first) {
    const at = lines.linePos(first.pos[0]);
    throw new SopworksError('SOP_INVALID', `${file}:${at.line}:${at.col}: YAML syntax error: ${first.message.split('\n')[0]}`);
  }
  return { file, document, lines };
}

/** "file:line:col" for a path inside the document (the nearest node that exists). */
export function locate(source: YamlSource, at: readonly PropertyKey[]): string {
  for (let depth = at.length; depth >= 0; depth--) {
    const node = source.document.getIn(at.slice(0, depth) as unknown[], true);
    if (isNode(node) && node.range) {
      const pos = source.lines.linePos(node.range[0]);
      return `${source.file}:${pos.line}:${pos.col}`;
    }
  }
  return `${source.file}:1:1`;
}

export function validateYaml<S extends z.ZodType>(source: YamlSource, schema: S): z.infer<S> {
  const parsed = schema.safeParse(source.document.toJS());
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const key = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
      return `${locate(source, key)}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`;
    });
    throw new SopworksError('SOP_INVALID', issues.join('\n'));
  }
  return parsed.data;
}

export async function loadYamlFile<S extends z.ZodType>(file: string, schema: S): Promise<z.infer<S>> {
  return validateYaml(await readYaml(file), schema);
}
