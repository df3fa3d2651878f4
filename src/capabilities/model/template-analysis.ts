/**
 * Reads a Handlebars template without rendering it: does it compile, and which names does it use at
 * its top level (where the variables a step provides are in scope), which helpers, which partials.
 * Inside `#each` and `#with` the context is an item, not the step's variables, so names there are
 * not the step's business — except `@root.x` and `../x` paths that climb back to the top.
 */
import Handlebars from 'handlebars';
import { z } from 'zod';

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export type TemplateUse =
  /** A name looked up in the template's variables; `member` is the next part (`role.title` → title). */
  | { kind: 'variable'; name: string; member: string | null; at: Position }
  | { kind: 'helper'; name: string; at: Position }
  /** `{{> name}}`: with a context parameter the partial sees that value, else the variables plus its hash. */
  | { kind: 'partial'; name: string; at: Position; topLevel: boolean; hashKeys: string[]; hasContext: boolean }
  /** The first argument of `{{markdown "PRD" prd}}`: which artifact to render. */
  | { kind: 'markdown'; artifact: string | null; at: Position }
  /** `../x` climbing above the top level, which strict mode rejects. */
  | { kind: 'above-top'; original: string; at: Position };

export type TemplateAnalysis = { ok: true; uses: TemplateUse[] } | { ok: false; at: Position; message: string };

/** Helpers that keep the context (their block sees the same variables); every other block changes it. */
const SAME_CONTEXT_BLOCKS = new Set(['if', 'unless']);

const LexerLocation = z.object({ first_line: z.number().int(), first_column: z.number().int() });

export function analyseTemplate(source: string, helpers: ReadonlySet<string>): TemplateAnalysis {
  let program: hbs.AST.Program;
  try {
    // precompile adds to the AST it is given, so it gets the source, not the program read here.
    program = Handlebars.parse(source);
    Handlebars.precompile(source, { strict: true });
  } catch (error) {
    return { ok: false, ...syntaxError(error) };
  }
  const uses: TemplateUse[] = [];
  const at = (node: Node): Position => ({ line: node.loc.start.line, column: node.loc.start.column + 1 });

  /** `depth`: how many context-changing blocks enclose the node (0 = the template's own variables). */
  const path = (node: hbs.AST.PathExpression, depth: number) => {
    if (node.data) {
      // @root.x is the top level; @index, @key, @first, @last are the loop's own.
      if (node.parts[0] === 'root' && node.parts.length > 1) uses.push({ kind: 'variable', name: node.parts[1]!, member: node.parts[2] ?? null, at: at(node) });
      return;
    }
    const level = depth - node.depth;
    if (level < 0) uses.push({ kind: 'above-top', original: node.original, at: at(node) });
    else if (level === 0 && node.parts.length > 0) uses.push({ kind: 'variable', name: node.parts[0]!, member: node.parts[1] ?? null, at: at(node) });
  };
  const expression = (node: Expression, depth: number) => {
    if (node.type === 'PathExpression') path(node as hbs.AST.PathExpression, depth);
    else if (node.type === 'SubExpression') call(node as hbs.AST.SubExpression, depth, true);
  };
  const args = (node: { params: Expression[]; hash?: hbs.AST.Hash }, depth: number) => {
    node.params.forEach((p) => expression(p, depth));
    node.hash?.pairs.forEach((pair) => expression(pair.value, depth));
  };
  /** A mustache, block or subexpression: a helper call, or (without arguments) a lookup. */
  const call = (node: { path: Expression; params: Expression[]; hash?: hbs.AST.Hash; loc: hbs.AST.SourceLocation }, depth: number, isHelper: boolean) => {
    const head = node.path as hbs.AST.PathExpression;
    const simple = head.type === 'PathExpression' && !head.data && head.depth === 0 && head.parts.length === 1 && !/^this\b/.test(head.original);
    const hasArgs = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    if (simple && (isHelper || hasArgs || helpers.has(head.parts[0]!))) {
      uses.push({ kind: 'helper', name: head.parts[0]!, at: at(head) });
      if (head.parts[0] === 'markdown') {
        const first = node.params[0];
        uses.push({ kind: 'markdown', artifact: first?.type === 'StringLiteral' ? (first as hbs.AST.StringLiteral).value : null, at: at(first ?? head) });
      }
    } else {
      expression(node.path, depth);
    }
    args(node, depth);
  };
  const statements = (body: hbs.AST.Statement[], depth: number) => body.forEach((s) => statement(s, depth));
  const statement = (node: hbs.AST.Statement, depth: number) => {
    switch (node.type) {
      case 'MustacheStatement':
        return call(node as hbs.AST.MustacheStatement, depth, false);
      case 'BlockStatement': {
        const block = node as hbs.AST.BlockStatement;
        call(block, depth, false);
        const name = (block.path as hbs.AST.PathExpression).parts?.[0] ?? '';
        const inner = SAME_CONTEXT_BLOCKS.has(name) ? depth : depth + 1;
        if (block.program) statements(block.program.body, inner);
        // {{else}} of #each/#with runs in the outer context; of #if/#unless too.
        if (block.inverse) statements(block.inverse.body, depth);
        return;
      }
      case 'PartialStatement':
      case 'PartialBlockStatement': {
        const partial = node as hbs.AST.PartialStatement & { program?: hbs.AST.Program };
        args(partial, depth);
        if (partial.name.type === 'PathExpression' && !(partial.name as hbs.AST.PathExpression).data) {
          uses.push({
            kind: 'partial',
            name: (partial.name as hbs.AST.PathExpression).original,
            at: at(partial),
            topLevel: depth === 0,
            hashKeys: partial.hash?.pairs.map((pair) => pair.key) ?? [],
            hasContext: partial.params.length > 0,
          });
        } else {
          expression(partial.name as Expression, depth);
        }
        if (partial.program) statements(partial.program.body, depth);
        return;
      }
      default:
        return; // content, comments, decorators
    }
  };
  statements(program.body, 0);
  return { ok: true, uses };
}

/** Where a template fails to parse: Handlebars' own location, else where its lexer stopped. */
function syntaxError(error: unknown): { at: Position; message: string } {
  const e = error as { message?: string; lineNumber?: number; column?: number };
  const message = (e.message ?? String(error)).split('\n')[0]!.replace(/ - \d+:\d+$/, '');
  const detail = /Expecting .*got '[^']*'|Expecting .*/.exec(e.message ?? '')?.[0];
  const text = detail ? `${message.replace(/:$/, '')}: ${detail}` : message;
  if (typeof e.lineNumber === 'number') return { at: { line: e.lineNumber, column: (e.column ?? 0) + 1 }, message: text };
  // Parse errors carry the position only in their text; the lexer remembers where it stopped.
  const lexer = LexerLocation.safeParse((Handlebars as unknown as { Parser?: { lexer?: { yylloc?: unknown } } }).Parser?.lexer?.yylloc);
  const line = Number(/on line (\d+)/.exec(message)?.[1] ?? 1);
  if (lexer.success && lexer.data.first_line === line) return { at: { line, column: lexer.data.first_column + 1 }, message: text };
  return { at: { line, column: 1 }, message: text };
}
