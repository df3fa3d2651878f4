/**
 * GBNF for a JSON artifact, from its step's JSON Schema: a rule per constraint the schema states, so
 * that what can be exact is exact by construction — never a paid re-ask:
 * - objects closed, every property present, in the schema's order; `anyOf`/`oneOf` and type lists as
 *   alternatives; enumerations and constants as their literals;
 * - strings within `minLength`/`maxLength` (a JSON escape is one character, as zod counts it), and a
 *   string that may not be empty starting with a character that is not white space (our schemas trim
 *   before they count, so " " is empty to them);
 * - a `pattern` that requires a fixed keyword first (keyword-pattern.ts): the keyword, then the end or
 *   a character that cannot continue the word;
 * - arrays within `minItems`/`maxItems`.
 * Compact JSON, no white space between tokens: every token is seconds on a CPU. Other patterns, and
 * refinements zod checks in code (a safe relative path), are left to the parser, which re-asks.
 * node-llama-cpp's own JSON Schema grammar builder knows neither patterns nor blank strings; this
 * replaces it for artifacts.
 */
import { keywordOfPattern } from '../../../../ground/text/index.ts';
import type { JsonSchemaNode } from '../../json-schema-node.ts';

/** JSON string characters: anything but a quote, a backslash or a control; or an escape. */
const CHAR = String.raw`char ::= [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt] | "\\u" [0-9a-fA-F]{4}`;
/** The first character of a string that may not be blank: not white space (nor an escape of it). */
const LEAD = String.raw`lead ::= [^"\\\x7F\x00-\x20] | "\\" ["\\/] | "\\u" [0-9a-fA-F]{4}`;
/** The character after a keyword: one that cannot continue the word. */
const AFTER_KEYWORD = String.raw`after-keyword ::= [^"\\\x7F\x00-\x1FA-Za-z0-9_] | "\\" ["\\/bfnrt] | "\\u" [0-9a-fA-F]{4}`;
const INTEGER = 'integer ::= "-"? ("0" | [1-9] [0-9]{0,15})';
/** Integers a schema bounds below at 0 or 1 (a count, a number from 1): no sign, and no 0 for the latter. */
const NATURAL = 'natural ::= "0" | [1-9] [0-9]{0,15}';
const POSITIVE = 'positive ::= [1-9] [0-9]{0,15}';
const NUMBER = 'number ::= integer ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?';
/** Any JSON value, for a part of a schema that says nothing (zod's "unrepresentable"). */
const ANY = [
  'any ::= "{" (any-string ":" any ("," any-string ":" any)*)? "}" | "[" (any ("," any)*)? "]" | any-string | number | "true" | "false" | "null"',
  'any-string ::= "\\"" char* "\\""',
].join('\n');

/** The GBNF text of a grammar whose root is a value of `schema`. */
export function jsonGrammar(schema: JsonSchemaNode): string {
  const builder = new RuleBuilder();
  const root = builder.value(schema);
  return [`root ::= ${root}`, ...builder.rules()].join('\n');
}

class RuleBuilder {
  private readonly byBody = new Map<string, string>();
  private readonly shared = new Set<string>();

  rules(): string[] {
    const shared = [CHAR, LEAD, AFTER_KEYWORD, INTEGER, NATURAL, POSITIVE, NUMBER, ANY].filter((rule) => this.shared.has(rule.split(' ')[0]!));
    return [...[...this.byBody].map(([body, name]) => `${name} ::= ${body}`), ...shared];
  }

  /** A rule for `body`, named once: the same constraint anywhere in the schema is one rule. */
  private rule(body: string): string {
    let name = this.byBody.get(body);
    if (!name) {
      name = `r${this.byBody.size + 1}`;
      this.byBody.set(body, name);
    }
    return name;
  }

  private use(name: 'char' | 'lead' | 'after-keyword' | 'integer' | 'natural' | 'positive' | 'number' | 'any'): string {
    this.shared.add(name);
    if (name === 'number' || name === 'any') this.shared.add('integer');
    if (name === 'any') this.shared.add('number').add('char');
    return name;
  }

  value(node: JsonSchemaNode): string {
    const choices = node.anyOf ?? node.oneOf;
    if (choices) return this.rule(choices.map((choice) => this.value(choice)).join(' | '));
    if (node.const !== undefined) return literal(node.const);
    if (node.enum) return this.rule(node.enum.map(literal).join(' | '));
    if (Array.isArray(node.type)) return this.rule(node.type.map((type) => this.value({ ...node, type })).join(' | '));
    switch (node.type) {
      case 'object':
        return this.object(node.properties ?? {});
      case 'array':
        return this.array(node);
      case 'string':
        return this.string(node);
      case 'integer':
        return this.use(node.minimum === undefined || node.minimum < 0 ? 'integer' : node.minimum < 1 ? 'natural' : 'positive');
      case 'number':
        return this.use('number');
      case 'boolean':
        return '("true" | "false")';
      case 'null':
        return '"null"';
      case undefined:
        return this.use('any');
      default:
        throw new Error(`the grammar cannot express a value of type ${JSON.stringify(node.type)}`);
    }
  }

  private object(properties: Record<string, JsonSchemaNode>): string {
    const members = Object.entries(properties).map(([key, value]) => `${literal(key)} ":" ${this.value(value)}`);
    return this.rule(members.length === 0 ? '"{}"' : `"{" ${members.join(' "," ')} "}"`);
  }

  private array(node: JsonSchemaNode): string {
    const item = node.items ? this.value(node.items) : this.use('any');
    const min = node.minItems ?? 0;
    const max = node.maxItems ?? null;
    if (max === 0) return '"[]"';
    const more = repeat(`"," ${item}`, Math.max(0, min - 1), max === null ? null : max - 1);
    const items = `${item} ${more}`.trim();
    return this.rule(min === 0 ? `"[" (${items})? "]"` : `"[" ${items} "]"`);
  }

  private string(node: JsonSchemaNode): string {
    const keyword = node.pattern ? keywordOfPattern(node.pattern) : null;
    const min = node.minLength ?? 0;
    const max = node.maxLength ?? null;
    if (keyword !== null) {
      // The keyword counts towards the length; what follows it starts with a character that ends the word.
      const rest = max === null ? `${this.use('char')}*` : repeat(this.use('char'), 0, Math.max(0, max - keyword.length - 1));
      const tail = max !== null && max <= keyword.length ? '' : ` (${this.use('after-keyword')} ${rest})${min > keyword.length ? '' : '?'}`;
      return this.rule(`"\\"" ${literalText(keyword)}${tail} "\\""`);
    }
    if (max === 0) return '"\\"\\""';
    if (min === 0) return this.rule(`"\\"" ${repeat(this.use('char'), 0, max)} "\\""`);
    return this.rule(`"\\"" ${this.use('lead')} ${repeat(this.use('char'), min - 1, max === null ? null : max - 1)} "\\""`);
  }
}

/** `item` repeated from `min` to `max` times (no bound when `max` is null), as GBNF. */
function repeat(item: string, min: number, max: number | null): string {
  const atom = /^[\w-]+$/.test(item) ? item : `(${item})`;
  if (max === null) return min === 0 ? `${atom}*` : min === 1 ? `${atom}+` : `${atom}{${min},}`;
  if (max === 0) return '';
  if (min === max) return `${atom}{${min}}`;
  return `${atom}{${min},${max}}`;
}

/** A JSON value as a GBNF literal of its compact JSON text. */
function literal(value: unknown): string {
  return literalText(JSON.stringify(value));
}

/** Text as a GBNF string literal. */
function literalText(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'))}"`;
}
