/**
 * Reads a YAML file and checks it against a zod schema, collecting every problem as a diagnostic at
 * file:line:column instead of stopping at the first (yaml-file.ts is the throwing counterpart).
 */
import fs from 'node:fs/promises';
import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { locate, type YamlSource } from '../../ground/files/index.ts';
import { type Diagnostic, sopError } from './diagnostic.ts';
import type { YamlPath } from './sop-walk.ts';

export interface ParsedYaml<T> {
  source: YamlSource | null;
  /** The validated value, or null when the file could not be read, parsed or validated. */
  value: T | null;
  diagnostics: Diagnostic[];
}

/** Reads and parses a YAML file; duplicate keys (a state id written twice, say) are errors. */
async function readYamlSource(file: string): Promise<{ source: YamlSource | null; diagnostics: Diagnostic[] }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { source: null, diagnostics: [sopError(`${file}:1:1`, `cannot read the file (${reason}); check the path and its permissions`)] };
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const diagnostics = document.errors.map((error) => {
    const at = lines.linePos(error.pos[0]);
    const where = `${file}:${at.line}:${at.col}`;
    if (error.code === 'DUPLICATE_KEY') {
      const key = (/^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0] ?? '').trim().replace(/^["']|["']$/g, '');
      return sopError(
        where,
        `YAML syntax error: duplicate key "${key}": a key (a state id, say) may appear only once in its mapping; rename or merge one of them`,
      );
    }
    return sopError(
      where,
      `YAML syntax error: ${error.message.split('\n')[0]}; fix the YAML here (look for a missing bracket, quote or colon, or an indentation slip)`,
    );
  });
  return { source: diagnostics.length > 0 ? null : { file, document, lines }, diagnostics };
}

/** Validates a parsed document; every zod issue becomes a diagnostic at the node it concerns. */
function checkYamlSchema<S extends z.ZodType>(source: YamlSource, schema: S): { value: z.infer<S> | null; diagnostics: Diagnostic[] } {
  const parsed = schema.safeParse(source.document.toJS());
  if (parsed.success) return { value: parsed.data, diagnostics: [] };
  const diagnostics = parsed.error.issues.map((issue) => {
    const unrecognized = issue.code === 'unrecognized_keys';
    const key = unrecognized ? [...issue.path, issue.keys[0]!] : issue.path;
    const fix = unrecognized ? '; remove it or correct its spelling (docs/sops.md lists the keys each part of a file may have)' : '';
    const where = unrecognized ? locatorOf(source).key(key as YamlPath) : locate(source, key);
    return sopError(where, `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}${fix}`);
  });
  return { value: null, diagnostics };
}

/** Reads, parses and validates one YAML file, collecting every problem. */
export async function loadYamlChecked<S extends z.ZodType>(file: string, schema: S): Promise<ParsedYaml<z.infer<S>>> {
  const read = await readYamlSource(file);
  if (!read.source) return { source: null, value: null, diagnostics: read.diagnostics };
  const checked = checkYamlSchema(read.source, schema);
  return { source: read.source, value: checked.value, diagnostics: checked.diagnostics };
}

/**
 * Finds places in one YAML file: `where(at)` is the node at a path (a value, such as a guard's name);
 * `where.key(at)` is the key that names it when the path ends in a mapping key (a state's id).
 */
export type Locator = ((at: YamlPath) => string) & { key: (at: YamlPath) => string };

export function locatorOf(source: YamlSource): Locator {
  const key = (at: YamlPath): string => {
    const last = at.at(-1);
    const parent = at.length > 0 ? source.document.getIn(at.slice(0, -1), true) : null;
    if (typeof last === 'string' && isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
      if (pair && isNode(pair.key) && pair.key.range) {
        const pos = source.lines.linePos(pair.key.range[0]);
        return `${source.file}:${pos.line}:${pos.col}`;
      }
    }
    return locate(source, at);
  };
  return Object.assign((at: YamlPath) => locate(source, at), { key });
}
