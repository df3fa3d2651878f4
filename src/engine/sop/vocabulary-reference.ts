/**
 * The vocabulary as Markdown tables — actions, guards, actors with their parameters (read from their
 * zod schemas), the views a step can use, and the message types, each with the description it is
 * declared with — printed by `sopworks sop vocabulary` and embedded in docs/sops.md (a test keeps the
 * two identical). Pure.
 */
import { z } from 'zod';
import type { Entry, Vocabulary } from '../steps/index.ts';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  default?: unknown;
  minimum?: number;
  pattern?: string;
};

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `list of ${typeOf(schema.items ?? {})}`;
  if (schema.type === 'object') return 'map of names';
  if (schema.type === 'integer' && schema.minimum !== undefined) return `integer ≥ ${schema.minimum}`;
  return Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
}

function parameters(entry: Entry): string {
  const schema = z.toJSONSchema(entry.params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const names = Object.entries(schema.properties ?? {});
  if (names.length === 0) return '—';
  return names
    .map(([name, p]) => {
      const required = schema.required?.includes(name);
      const extra = required ? '' : p.default !== undefined ? `, default \`${JSON.stringify(p.default)}\`` : ', optional';
      return `\`${name}\`: ${typeOf(p)}${extra}`;
    })
    .join('<br>');
}

/** A table cell: pipes escaped, and outside `code` the angle brackets, which Markdown would take for HTML. */
const escapeCell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;').replace(/>/g, '&gt;') : part))
    .join('`');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function vocabularyReference(vocabulary: Vocabulary): string {
  const kind = (title: string, entries: Readonly<Record<string, Entry>>, intro: string) =>
    [
      `### ${title}`,
      intro,
      table(
        ['name', 'parameters', 'what it does'],
        Object.entries(entries).map(([name, e]) => [`\`${name}\``, parameters(e), escapeCell(e.description)]),
      ),
    ].join('\n\n');
  return (
    [
      kind('Actions', vocabulary.actions, "Named in `entry`, `exit` and a transition's `actions`: `keep` or `{ type: keep, params: { slot: prd } }`."),
      kind('Guards', vocabulary.guards, "Named in a transition's `guard`: `approved` or `{ type: below, params: { counter: revisions, max: 2 } }`."),
      kind('Actors (steps)', vocabulary.steps, 'Named in `invoke.src`, with their parameters in `invoke.input`.'),
      '### Views',
      'Names a step can hand to a template (`with`), put in a payload (`payload`, `fields`) or add to an outcome (`detail`). A slot the SOP keeps under the same name takes precedence.',
      table(
        ['view', 'what it is'],
        Object.entries(vocabulary.views).map(([name, view]) => [`\`${name}\``, escapeCell(view.description)]),
      ),
      '### Message types',
      'What roles watch (company.yaml) and publish; those that commit files say which.',
      table(
        ['type', 'what it is', 'commits'],
        Object.entries(vocabulary.messages).map(([name, type]) => [`\`${name}\``, escapeCell(type.description), type.files ? 'yes' : 'no']),
      ),
    ].join('\n\n') + '\n'
  );
}
