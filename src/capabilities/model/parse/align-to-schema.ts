/**
 * Mechanical repairs of a reply's JSON *shape*, guided by the JSON Schema the model was asked for:
 * keys in the wrong case or spelling style (`ProjectName`, `project_name` → `projectName`), enum values in
 * the wrong case (`p0` → `P0`), the artifact wrapped in one extra key (`{"PRD": {…}}`), and a bare list
 * where the schema wants an object holding just that list (`[…]` → `{"tasks": […]}`), and a text whose
 * schema requires a fixed keyword first (a mermaid diagram's `classDiagram`) that left it out or fenced
 * it (```` ```mermaid ````): the fence is dropped and the keyword put first — what a re-ask would ask for.
 *
 * Each repair is made only when it is unambiguous, and none decides anything: the zod schema still
 * judges every shape offered here.
 */
import { keywordOfPattern, keywordPattern } from '../../../ground/text/index.ts';
import type { JsonSchemaNode } from '../json-schema-node.ts';

export interface Shape {
  value: unknown;
  /** What was changed to get here, e.g. `renamed "Goals" to "goals"`; empty when nothing was. */
  changes: string[];
}

/** The shapes worth validating, most faithful first: the reply as it is (keys aligned), then reshaped. */
export function candidateShapes(data: unknown, schema: JsonSchemaNode): Shape[] {
  const shapes: Shape[] = [align(data, schema, '')];
  const unwrapped = unwrap(data, schema);
  if (unwrapped) shapes.push(withChange(align(unwrapped.value, schema, ''), unwrapped.change));
  const wrapped = wrap(data, schema);
  if (wrapped) shapes.push(withChange(align(wrapped.value, schema, ''), wrapped.change));
  return shapes;
}

const withChange = (shape: Shape, change: string): Shape => ({ value: shape.value, changes: [change, ...shape.changes] });

/** `projectName`, `ProjectName`, `project_name`, `PROJECT-NAME` all read as `projectname`. */
const normalKey = (key: string): string => key.toLowerCase().replace(/[\s_-]/g, '');

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The branch of a union (e.g. `X | null`) that fits the value's kind. */
function branchFor(value: unknown, schema: JsonSchemaNode): JsonSchemaNode {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  const fitting = branches.find((b) =>
    Array.isArray(value) ? b.items !== undefined : isRecord(value) ? b.properties !== undefined : typeof value === 'string' ? b.enum !== undefined : false,
  );
  return fitting ?? schema;
}

function align(value: unknown, schemaNode: JsonSchemaNode, at: string): Shape {
  const schema = branchFor(value, schemaNode);
  if (Array.isArray(value) && schema.items) {
    const changes: string[] = [];
    const items = value.map((item, i) => {
      const aligned = align(item, schema.items!, `${at}${at ? '.' : ''}${i}`);
      changes.push(...aligned.changes);
      return aligned.value;
    });
    return { value: items, changes };
  }
  if (isRecord(value) && schema.properties) return alignObject(value, schema.properties, at);
  if (typeof value === 'string' && schema.pattern) {
    const mended = withKeyword(value, schema.pattern);
    if (mended !== null) return { value: mended, changes: [`put "${keywordOfPattern(schema.pattern)}" first in ${at || 'the value'}`] };
  }
  if (typeof value === 'string' && schema.enum && !schema.enum.includes(value)) {
    const matches = schema.enum.filter((e): e is string => typeof e === 'string' && e.toLowerCase() === value.toLowerCase());
    if (matches.length === 1) return { value: matches[0], changes: [`changed ${at || 'the value'} "${value}" to "${matches[0]}"`] };
  }
  return { value, changes: [] };
}

function alignObject(value: Record<string, unknown>, properties: Record<string, JsonSchemaNode>, at: string): Shape {
  const byNormal = new Map<string, string[]>();
  for (const key of Object.keys(properties)) byNormal.set(normalKey(key), [...(byNormal.get(normalKey(key)) ?? []), key]);
  const out: Record<string, unknown> = {};
  const changes: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    let target = key;
    if (!Object.hasOwn(properties, key)) {
      const matches = byNormal.get(normalKey(key)) ?? [];
      // Renamed only when exactly one schema key fits and the reply does not also hold that key itself.
      if (matches.length === 1 && !Object.hasOwn(value, matches[0]!) && !Object.hasOwn(out, matches[0]!)) {
        target = matches[0]!;
        changes.push(`renamed ${at ? `${at}.` : ''}"${key}" to "${target}"`);
      }
    }
    const schema = properties[target];
    if (schema) {
      const aligned = align(item, schema, `${at}${at ? '.' : ''}${target}`);
      changes.push(...aligned.changes);
      out[target] = aligned.value;
    } else {
      out[target] = item;
    }
  }
  return { value: out, changes };
}

/**
 * What the first statement of a diagram without its keyword looks like, per keyword: only such a body
 * gets the keyword put first. Prose, or another kind of diagram (`graph TD`), is re-asked.
 */
const DIAGRAM_BODY: Record<string, RegExp> = {
  classDiagram:
    /^(class\s+[\w`]|direction\s+(TB|BT|LR|RL)\b|[\w`~<>]+\s*(<\|--|--\|>|\*--|--\*|o--|--o|-->|<--|\.\.>|<\.\.|\.\.\|>|<\|\.\.|--|\.\.)\s*[\w`"]|[\w`]+\s*:\s*[+\-#~]?[\w$])/,
  sequenceDiagram:
    /^(participant\s|actor\s|autonumber\b|(loop|alt|opt|par|critical|rect)\s|note\s+(left|right|over)\s|[\w ]+?\s*(--?>>|--?>|--?x|--?\))[+-]?\s*[\w ]+:)/,
};

/**
 * A text mended to start with the keyword its pattern requires (keyword-pattern.ts), or null when it
 * needs no mending or cannot be mended: a ```` ```mermaid ```` fence around it is dropped, the keyword
 * in another case is corrected, a missing one is put first when the text starts as such a diagram does.
 */
function withKeyword(value: string, pattern: string): string | null {
  const keyword = keywordOfPattern(pattern);
  if (keyword === null || keywordPattern(keyword).test(value.trim())) return null;
  const body = value
    .trim()
    .replace(/^(`{3,}|~{3,})[ \t]*(mermaid)?[ \t]*\n([\s\S]*?)\n?\1[ \t]*$/, '$3')
    .trim();
  const sameWord = new RegExp(`^${keyword}(?![A-Za-z0-9_])`, 'i');
  const mended = sameWord.test(body) ? `${keyword}${body.slice(keyword.length)}` : DIAGRAM_BODY[keyword]?.test(body) ? `${keyword}\n${body}` : null;
  return mended !== null && keywordPattern(keyword).test(mended) ? mended : null;
}

/** `{"PRD": {…}}` → `{…}`: one key that is not one of the schema's, holding what the schema describes. */
function unwrap(data: unknown, schema: JsonSchemaNode): { value: unknown; change: string } | null {
  if (!isRecord(data)) return null;
  const keys = Object.keys(data);
  if (keys.length !== 1) return null;
  const key = keys[0]!;
  const inner = data[key];
  const known = new Set(Object.keys(schema.properties ?? {}).map(normalKey));
  if (known.has(normalKey(key))) return null;
  const fits = schema.properties ? isRecord(inner) : schema.items ? Array.isArray(inner) : false;
  return fits ? { value: inner, change: `took the content of the wrapping key "${key}"` } : null;
}

/** `[…]` → `{"tasks": […]}` when the schema is an object with a single property, and that is a list. */
function wrap(data: unknown, schema: JsonSchemaNode): { value: unknown; change: string } | null {
  if (!Array.isArray(data) || !schema.properties) return null;
  const entries = Object.entries(schema.properties);
  if (entries.length !== 1) return null;
  const [key, property] = entries[0]!;
  if (branchFor(data, property).items === undefined) return null;
  return { value: { [key]: data }, change: `put the list under "${key}"` };
}
