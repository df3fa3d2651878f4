/**
 * How real models spoil a JSON artifact. Those that keep its meaning — prose around it, another fence,
 * trailing commas, comments, Python's quoting, keys in another case, a wrapping key, a bare list — must
 * be read back to the same value; those that do not — a required field left out, two different answers —
 * must be re-asked. Each takes the artifact's data and returns the spoiled text, or null where it cannot
 * apply (a spoiling that would not change what it claims to).
 */

import type { JsonSchemaNode } from '../json-schema-node.ts';
import { strictJsonSchema } from '../strict-json-schema.ts';
import type { CleanReply } from './clean-reply.ts';
import type { Draws } from './draws.ts';

type Json = Extract<CleanReply, { kind: 'json' }>;
export type JsonSpoiler = (reply: Json, draws: Draws) => string | null;

const pretty = (data: unknown): string => JSON.stringify(data, null, 2);

const LEAD_INS = [
  (name: string) => `Here is the ${name} as requested:`,
  (name: string) => `Sure! Below is the ${name} in JSON format.`,
  () => 'Certainly. Based on the requirements, here is the result:',
  (name: string) => `I've prepared the ${name}:`,
];
const TRAILERS = ['Let me know if you would like any changes.', 'This covers every point of the request.', ''];

export const jsonInProse: JsonSpoiler = (reply, draws) => `${draws.pick(LEAD_INS)(reply.name)}\n\n${pretty(reply.data)}\n\n${draws.pick(TRAILERS)}`.trim();

export const jsonWrongFence: JsonSpoiler = (reply, draws) => {
  const [open, close] = draws.pick([
    ['```js', '```'],
    ['```javascript', '```'],
    ['```', '```'],
    ['~~~json', '~~~'],
    ['````json', '````'],
    ['```text', '```'],
  ] as const);
  return `${open}\n${pretty(reply.data)}\n${close}`;
};

/** Every last element of an object or array followed by a comma. Strings hold no raw newline in JSON. */
export const trailingCommas: JsonSpoiler = (reply) => {
  const text = pretty(reply.data).replace(/([^[{,\s])\n(\s*[}\]])/g, '$1,\n$2');
  return text === pretty(reply.data) ? null : text;
};

export const jsonComments: JsonSpoiler = (reply, draws) => {
  const lines = pretty(reply.data).split('\n');
  if (lines.length < 3) return null;
  const comment = draws.pick(['// as specified', '/* generated from the request */', '// all fields filled in']);
  return [lines[0], `  ${comment}`, ...lines.slice(1, -1), '  // end', lines.at(-1)].join('\n');
};

/** As Python prints a dict: single quotes (double where the text holds one), True, False, None. */
export const pythonQuoting: JsonSpoiler = (reply) => {
  const quote = (s: string): string =>
    s.includes("'") && !s.includes('"') ? JSON.stringify(s) : `'${JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  const write = (value: unknown, indent: string): string => {
    if (value === null) return 'None';
    if (value === true) return 'True';
    if (value === false) return 'False';
    if (typeof value === 'string') return quote(value);
    if (typeof value === 'number') return String(value);
    const inner = `${indent}    `;
    if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => inner + write(v, inner)).join(',\n')}\n${indent}]`;
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${inner}${quote(k)}: ${write(v, inner)}`).join(',\n')}\n${indent}}`;
  };
  return write(reply.data, '');
};

const snake = (key: string): string => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

/** The schema's own keys renamed (snake_case or PascalCase); the keys of a map field are data, left alone. */
export const keyCase: JsonSpoiler = (reply, draws) => {
  const rename = draws.pick([snake, pascal]);
  let changed = false;
  const walk = (value: unknown, node: JsonSchemaNode | undefined): unknown => {
    const branch = node?.anyOf?.find((b) => (Array.isArray(value) ? b.items : b.properties)) ?? node;
    if (Array.isArray(value)) return value.map((v) => walk(v, branch?.items));
    if (value === null || typeof value !== 'object' || !branch?.properties) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => {
        const renamed = branch.properties![k] ? rename(k) : k;
        changed ||= renamed !== k;
        return [renamed, walk(v, branch.properties![k])];
      }),
    );
  };
  const data = walk(reply.data, schemaOf(reply));
  return changed ? pretty(data) : null;
};

export const wrappingKey: JsonSpoiler = (reply, draws) => {
  const properties = Object.keys(schemaOf(reply)?.properties ?? {}).map((k) => k.toLowerCase());
  const names = [reply.name, reply.name.toLowerCase(), 'data', 'result', 'response'].filter((n) => !properties.includes(n.toLowerCase()));
  if (names.length === 0 || typeof reply.data !== 'object' || reply.data === null || Array.isArray(reply.data)) return null;
  return pretty({ [draws.pick(names)]: reply.data });
};

/** `{"tasks": […]}` sent as the bare list, where the schema is an object holding just that list. */
export const bareList: JsonSpoiler = (reply) => {
  const data = reply.data as Record<string, unknown>;
  const keys = Object.keys(schemaOf(reply)?.properties ?? {});
  return keys.length === 1 && Array.isArray(data?.[keys[0]!]) ? pretty(data[keys[0]!]) : null;
};

/** A field the schema requires, left out: the reply must be re-asked, never completed with a guess. */
export const missingField: JsonSpoiler = (reply, draws) => {
  if (typeof reply.data !== 'object' || reply.data === null || Array.isArray(reply.data)) return null;
  const candidates = Object.keys(reply.data).filter((key) => {
    const { [key]: _left, ...rest } = reply.data as Record<string, unknown>;
    return !reply.schema.safeParse(rest).success;
  });
  if (candidates.length === 0) return null;
  const { [draws.pick(candidates)]: _dropped, ...rest } = reply.data as Record<string, unknown>;
  return pretty(rest);
};

/** Two different valid objects: which one the model meant is not for the parser to guess. */
export const twoAnswers: JsonSpoiler = (reply) => {
  const other = alternative(reply.data);
  if (other === null || !reply.schema.safeParse(other).success) return null;
  return `Here is the ${reply.name}:\n\n\`\`\`json\n${pretty(reply.data)}\n\`\`\`\n\nAlternatively, a variant:\n\n\`\`\`json\n${pretty(other)}\n\`\`\``;
};

/** The data with its first non-empty string changed, or null when it holds none. */
function alternative(data: unknown): unknown {
  let done = false;
  const walk = (value: unknown): unknown => {
    if (done) return value;
    if (typeof value === 'string' && value.trim() !== '' && !/^[A-Z0-9_-]+$/.test(value)) {
      done = true;
      return `${value} (variant)`;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  const changed = walk(data);
  return done ? changed : null;
}

function schemaOf(reply: Json): JsonSchemaNode | undefined {
  try {
    return strictJsonSchema(reply.schema) as JsonSchemaNode;
  } catch {
    return undefined;
  }
}
