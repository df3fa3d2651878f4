/**
 * What an Engineer is shown of a file it depends on: its exported names with whole signatures, read
 * with tree-sitter — never a signature cut at its first line, a value cut mid-expression, or a private
 * or nested helper shown as if it were public.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { codeInterface } from '../../../src/documents/code-interface.ts';
import { grammarOf, languageOf } from '../../../src/ground/syntax/index.ts';
import { ROOT } from '../../helpers/paths.ts';

/** Whether the interface parses as its language once its elisions are made code (`{ … }` → `{}`, `…` → a value). */
async function parsesWhole(file: string, shown: string): Promise<boolean> {
  const language = languageOf(file)!;
  const code = language === 'python' ? shown : shown.replaceAll('{ … }', '{}').replaceAll('…', '0');
  const tree = (await grammarOf(language)).parser.parse(code)!;
  try {
    return !tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}

const CLI_JS = `#!/usr/bin/env node
/**
 * The todo command line: parses argv and runs one command.
 */
import fs from 'node:fs';
import { Store } from './store.js';

const DEFAULT_FILE = '.todo.json';

/** What \`todo --help\` prints. */
export const USAGE = [
  'usage: todo <command> [args]',
  '',
  'commands:',
  '  add <text>     add an item',
  '  done <id>      mark an item done',
].join('\\n');

export const EXIT = Object.freeze({ OK: 0, USAGE: 2 });

function parseId(text) {
  const id = Number.parseInt(text, 10);
  if (!Number.isInteger(id)) throw new Error(\`not an id: \${text}\`);
  return id;
}

/**
 * Runs one command.
 * @param {string[]} argv the arguments after the program's name
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io where output goes
 * @returns {Promise<number>} the exit code
 */
export async function run(argv, io = {
  stdout: process.stdout,
  stderr: process.stderr,
  file: process.env.TODO_FILE ?? DEFAULT_FILE,
}) {
  function say(line) {
    io.stdout.write(\`\${line}\\n\`);
  }
  const [command, ...rest] = argv;
  if (command === 'add') {
    say(rest.join(' '));
    return EXIT.OK;
  }
  return EXIT.USAGE;
}

export const format = (item, { width = 40, mark = '[x]' } = {}) =>
  \`\${item.done ? mark : '[ ]'} \${item.text}\`.slice(0, width);

export class TodoList extends Store {
  #items = [];
  static VERSION = 2;

  constructor(file, {
    create = true,
  } = {}) {
    super(file);
    this.create = create;
  }

  get size() {
    return this.#items.length;
  }

  #save() {
    fs.writeFileSync(this.file, JSON.stringify(this.#items));
  }

  /** Adds an item and returns its id. */
  add(text) {
    this.#items.push({ text, done: false });
    this.#save();
    return this.#items.length;
  }
}

if (import.meta.url === \`file://\${process.argv[1]}\`) {
  run(process.argv.slice(2)).then((code) => process.exit(code));
}
`;

const STORE_TS = `import { readFile } from 'node:fs/promises';

export interface Item {
  id: number;
  /** What to do. */
  text: string;
  done: boolean;
}

export type Filter = (item: Item) => boolean;

export enum Status {
  Open = 'open',
  Done = 'done',
}

export function load(file: string): Promise<Item[]>;
export function load(file: string, filter: Filter): Promise<Item[]>;
export async function load(
  file: string,
  filter: Filter = () => true,
): Promise<Item[]> {
  const text = await readFile(file, 'utf8');
  return (JSON.parse(text) as Item[]).filter(filter);
}

export abstract class Store<T extends Item = Item> {
  private cache = new Map<number, T>();
  protected readonly file: string;
  public count = 0;

  constructor(file: string, private readonly strict = false) {
    this.file = file;
  }

  abstract save(items: readonly T[]): Promise<void>;

  private touch(): void {
    this.count++;
  }

  static async open<T extends Item>(
    file: string,
    options: { strict?: boolean } = {},
  ): Promise<T[]> {
    return [];
  }
}

export const handlers: Record<string, (argv: string[]) => number> = {
  list: (argv) => {
    return argv.length;
  },
};
`;

const ALIGN_PY = `"""Column alignment for Markdown tables."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

DEFAULT_ALIGN: str = "left"
_SEPARATOR = re.compile(r"^:?-+:?$")
ALIGNMENTS = {
    "left": ":---",
    "right": "---:",
    "center": ":---:",
}


def resolve_alignments(
    header: Sequence[str],
    spec: str | None = None,
    *,
    default: str = DEFAULT_ALIGN,
    numeric_columns: Iterable[int] = (),
) -> list[str]:
    """Resolve the alignment of each column.

    A spec is a comma-separated list of l, r and c.
    """

    def parse_one(letter: str) -> str:
        return {"l": "left", "r": "right", "c": "center"}[letter]

    letters = (spec or "").split(",")
    return [parse_one(letter) if letter else default for letter in letters][: len(header)]


def _helper(a, b):
    return a + b


@dataclass(frozen=True)
class Table:
    """A parsed table: a header and its rows."""

    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    _widths: dict[int, int] = field(default_factory=dict)

    @property
    def width(self) -> int:
        return len(self.header)

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Sequence[str]],
        *,
        header: Sequence[str] | None = None,
    ) -> "Table":
        rows = [list(r) for r in rows]
        return cls(list(header or rows[0]), rows[1:])

    def __len__(self) -> int:
        return len(self.rows)

    def _pad(self, cell: str, width: int) -> str:
        return cell.ljust(width)


class _Cache:
    pass


if __name__ == "__main__":
    print(resolve_alignments(["a"]))
`;

const TABLE_GO = `// Package table renders rows as a Markdown table.
package table

import (
	"fmt"
	"io"
)

// MaxWidth is the widest a column may be.
const MaxWidth = 80

const (
	Left Align = iota
	Right
	unexported = 3
)

// Table holds a header and its rows.
type Table struct {
	Header []string
	rows   [][]string
	Width  int
}

// Align is a column's alignment.
type Align int

// New makes a table.
func New(header []string,
	rows [][]string,
	align ...Align) *Table {
	return &Table{Header: header, rows: rows}
}

// Render writes the table.
func (t *Table) Render(w io.Writer) error {
	_, err := fmt.Fprintln(w, t.Header)
	return err
}

func (t *Table) grow(n int) {}

func helper() {}
`;

describe('codeInterface: what a file that depends on another is shown of it', () => {
  describe('JavaScript', () => {
    let out = '';
    before(async () => {
      out = await codeInterface('src/cli.js', CLI_JS);
    });

    it('shows a signature whose parameters span lines whole, defaults and all', () => {
      assert.ok(
        out.includes(
          'export async function run(argv, io = {\n  stdout: process.stdout,\n  stderr: process.stderr,\n  file: process.env.TODO_FILE ?? DEFAULT_FILE,\n}) { … }',
        ),
        out,
      );
      assert.ok(
        out.includes("export const format = (item, { width = 40, mark = '[x]' } = {}) =>\n  `${item.done ? mark : '[ ]'} ${item.text}`.slice(0, width);"),
        out,
      );
      assert.ok(out.includes('  constructor(file, {\n    create = true,\n  } = {}) { … }'), out);
    });

    it('shows an exported constant whole, never cut mid-expression', () => {
      assert.ok(out.includes(`export const USAGE = [\n  'usage: todo <command> [args]',`), out);
      assert.ok(out.includes("  '  done <id>      mark an item done',\n].join('\\n');"), out);
      assert.ok(out.includes('export const EXIT = Object.freeze({ OK: 0, USAGE: 2 });'), out);
    });

    it("keeps the doc comments of exports and a class's public members", () => {
      assert.ok(out.includes(' * @returns {Promise<number>} the exit code\n */\nexport async function run('), out);
      assert.ok(out.includes('  /** Adds an item and returns its id. */\n  add(text) { … }'), out);
      assert.ok(out.includes('  static VERSION = 2;\n'), out);
      assert.ok(out.includes('  get size() { … }\n'), out);
    });

    it("keeps the indentation of an example inside a doc comment (p-limit's index.d.ts, its @example indented by tabs)", async () => {
      const dts = [
        'export type LimitFunction = {',
        '\t/**',
        '\tReturns a promise.',
        '',
        '\t@example',
        '\t```',
        '\tconst input = [',
        "\t\tlimit(() => fetchSomething('foo')),",
        '\t];',
        '\t```',
        '\t*/',
        '\tonIdle: () => Promise<void>;',
        '};',
        '/**',
        '@example',
        '```',
        'const input = [',
        "\tlimit(() => fetchSomething('foo')),",
        '];',
        '```',
        '*/',
        'export default function pLimit(concurrency: number): LimitFunction;',
        '',
      ].join('\n');
      const shown = await codeInterface('index.d.ts', dts);
      assert.ok(shown.includes("\tconst input = [\n\t\tlimit(() => fetchSomething('foo')),\n\t];"), shown);
      assert.ok(shown.includes("const input = [\n\tlimit(() => fetchSomething('foo')),\n];\n```\n*/\nexport default function pLimit"), shown);
    });

    it('leaves out bodies, imports, private members, nested and unexported helpers', () => {
      for (const gone of ['parseId', 'function say', '#items', '#save', 'writeFileSync', 'import fs', 'DEFAULT_FILE =', 'import.meta.url ===', 'return EXIT']) {
        assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
      }
    });

    it('is whole code: it parses once its elisions are made code', async () => {
      assert.ok(await parsesWhole('src/cli.js', out), out);
    });

    it('shows what CommonJS exports, with the signatures of the functions it names', async () => {
      const source =
        "function greet(name,\n  greeting = 'hello') {\n  return `${greeting} ${name}`;\n}\nfunction hidden() {}\nmodule.exports = { greet };\nexports.VERSION = '1.0';\n";
      assert.equal(
        await codeInterface('lib/greet.cjs', source),
        "function greet(name,\n  greeting = 'hello') { … }\nmodule.exports = { greet };\nexports.VERSION = '1.0';",
      );
    });

    it('shows the declaration an ES export names (`export default $`, `export { a as b }`), a long object as its keys', async () => {
      const entries = Array.from({ length: 30 }, (_, i) => `\tcolor${i}: init(${i}, 39),`).join('\n');
      const source = `'use strict';\nfunction init(x, y) {\n  return x + y;\n}\nconst $ = {\n\tenabled: true,\n${entries}\n\tstrip(text) { return text; },\n};\nconst other = 1;\nconst hidden = 2;\nexport { other as renamed };\nexport default $;\n`;
      const shown = await codeInterface('index.mjs', source);
      const keys = Array.from({ length: 30 }, (_, i) => `color${i}: …`).join(', ');
      assert.equal(shown, `const $ = { enabled: …, ${keys}, strip() { … } };\nconst other = 1;\nexport { other as renamed };\nexport default $;`);
      assert.ok(await parsesWhole('index.mjs', shown), shown);
    });

    it('shows the functions a UMD module declares inside its wrapper, where it assigns module.exports (trial mdpreview50)', async () => {
      const umd = [
        '(function (root, factory) {',
        '  var api = factory(root);',
        "  if (typeof module === 'object' && module && module.exports) {",
        '    module.exports = api;',
        '  } else {',
        '    root.MarkdownInline = api;',
        '  }',
        "})(typeof globalThis !== 'undefined' ? globalThis : this, function (root) {",
        '  /** Escape the HTML-significant characters. */',
        '  function escapeHtml(s) {',
        "    return String(s).replace(/&/g, '&amp;');",
        '  }',
        '  function renderInline(text) {',
        '    function helper() {',
        '      return 1;',
        '    }',
        '    return escapeHtml(text) + helper();',
        '  }',
        '  return { escapeHtml: escapeHtml, renderInline: renderInline };',
        '});',
        '',
      ].join('\n');
      assert.equal(
        await codeInterface('src/inline.js', umd),
        [
          '// its exports are assigned inside a wrapper: the functions and classes it declares',
          '/** Escape the HTML-significant characters. */',
          'function escapeHtml(s) { … }',
          'function renderInline(text) { … }',
        ].join('\n'),
      );
      // mathiasbynens/base64's shape: `freeModule.exports = base64`, its functions held in variables.
      const freeModule = [
        ';(function(root) {',
        "\tvar freeModule = typeof module == 'object' && module;",
        '\tvar error = function(message) {',
        '\t\tthrow new Error(message);',
        '\t};',
        '\t// Encodes a string.',
        '\tvar encode = function(input) {',
        '\t\treturn input;',
        '\t};',
        "\tvar base64 = { 'encode': encode, 'version': '1.0.0' };",
        '\tif (freeModule) {',
        '\t\tfreeModule.exports = base64;',
        '\t}',
        '}(this));',
        '',
      ].join('\n');
      assert.equal(
        await codeInterface('base64.js', freeModule),
        [
          '// its exports are assigned inside a wrapper: the functions and classes it declares',
          'var error = function(message) { … };',
          '// Encodes a string.',
          'var encode = function(input) { … };',
        ].join('\n'),
      );
      // A script that assigns no module.exports still exports nothing, whatever functions it holds.
      const script = "(function () {\n  function bind(editor) {\n    editor.value = '';\n  }\n  bind(document.getElementById('editor'));\n})();\n";
      assert.equal(await codeInterface('src/app.js', script), '(it exports nothing)');
    });

    it('says so when a module exports nothing', async () => {
      assert.equal(await codeInterface('bin/run.mjs', 'console.log("hello");\nprocess.exit(0);\n'), '(it exports nothing)');
    });
  });

  describe('TypeScript', () => {
    let out = '';
    before(async () => {
      out = await codeInterface('src/store.ts', STORE_TS);
    });

    it('shows exported types, interfaces and enums whole', () => {
      assert.ok(out.includes('export interface Item {\n  id: number;\n  /** What to do. */\n  text: string;\n  done: boolean;\n}'), out);
      assert.ok(out.includes('export type Filter = (item: Item) => boolean;'), out);
      assert.ok(out.includes("export enum Status {\n  Open = 'open',\n  Done = 'done',\n}"), out);
    });

    it('shows overloads and multi-line signatures with their types', () => {
      assert.ok(out.includes('export function load(file: string, filter: Filter): Promise<Item[]>;'), out);
      assert.ok(out.includes('export async function load(\n  file: string,\n  filter: Filter = () => true,\n): Promise<Item[]> { … }'), out);
      assert.ok(out.includes('  static async open<T extends Item>(\n    file: string,\n    options: { strict?: boolean } = {},\n  ): Promise<T[]> { … }'), out);
    });

    it("keeps a class's public and protected members, not its private ones", () => {
      assert.ok(out.includes('export abstract class Store<T extends Item = Item> {\n  protected readonly file: string;\n  public count = 0;'), out);
      assert.ok(out.includes('  constructor(file: string, private readonly strict = false) { … }'), out);
      assert.ok(out.includes('  abstract save(items: readonly T[]): Promise<void>;'), out);
      for (const gone of ['cache', 'touch', 'readFile', 'JSON.parse']) assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
    });

    it('shows the functions of an exported object as signatures', () => {
      assert.ok(out.includes('export const handlers: Record<string, (argv: string[]) => number> = {\n  list: (argv) => { … },\n};'), out);
    });

    it('is whole code: it parses once its elisions are made code', async () => {
      assert.ok(await parsesWhole('src/store.ts', out), out);
    });
  });

  describe('Python', () => {
    let out = '';
    before(async () => {
      out = await codeInterface('mdtable/align.py', ALIGN_PY);
    });

    it('shows a signature that spans lines whole: parameters, defaults, annotations, return type', () => {
      assert.ok(
        out.includes(
          'def resolve_alignments(\n    header: Sequence[str],\n    spec: str | None = None,\n    *,\n    default: str = DEFAULT_ALIGN,\n    numeric_columns: Iterable[int] = (),\n) -> list[str]:\n    """Resolve the alignment of each column."""',
        ),
        out,
      );
    });

    it("shows public constants, classes with their decorators, and a class's public members", () => {
      assert.ok(out.startsWith('DEFAULT_ALIGN: str = "left"\nALIGNMENTS = {\n    "left": ":---",'), out);
      assert.ok(
        out.includes(
          '@dataclass(frozen=True)\nclass Table:\n    """A parsed table: a header and its rows."""\n    header: list[str]\n    rows: list[list[str]] = field(default_factory=list)\n    @property\n    def width(self) -> int: ...',
        ),
        out,
      );
      assert.ok(
        out.includes(
          '    @classmethod\n    def from_rows(\n        cls,\n        rows: Iterable[Sequence[str]],\n        *,\n        header: Sequence[str] | None = None,\n    ) -> "Table": ...',
        ),
        out,
      );
      assert.ok(out.includes('    def __len__(self) -> int: ...'), out);
    });

    it('leaves out private names, nested functions, bodies and the main block', () => {
      for (const gone of ['_SEPARATOR', '_helper', 'parse_one', '_widths', '_pad', '_Cache', '__main__', 'letters =', 'comma-separated', 'import re']) {
        assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
      }
    });

    it('shows the public attributes a constructor sets, not its other statements', async () => {
      const source =
        'class CsvError(Exception):\n    """A bad input."""\n\n    def __init__(self, message: str, line: int | None = None) -> None:\n        super().__init__(message)\n        self.message = message\n        self.line: int | None = line\n        self._seen = set()\n        self.rows = [\n            1,\n        ]\n';
      assert.equal(
        await codeInterface('errors.py', source),
        'class CsvError(Exception):\n    """A bad input."""\n    def __init__(self, message: str, line: int | None = None) -> None:\n        self.message = message\n        self.line: int | None = line\n        self.rows = ...',
      );
    });

    it('keeps to the names __all__ lists, when it lists them', async () => {
      const shown = await codeInterface('m.py', '__all__ = ["shown"]\n\ndef shown(a):\n    return a\n\ndef other(b):\n    return b\n');
      assert.equal(shown, 'def shown(a): ...');
    });

    it("shows a package's re-exports, the imports of the names __all__ lists (trial flagexpr48: its __init__.py had 'no public names')", async () => {
      const init =
        '"""flag_expr: parse and evaluate feature-flag expressions."""\n\nimport re\nfrom .api import CompiledExpression, evaluate, parse\nfrom .errors import ExpressionSyntaxError as SyntaxFault\nfrom .tokens import Token\n\n__all__ = ["evaluate", "parse", "CompiledExpression", "SyntaxFault"]\n';
      assert.equal(
        await codeInterface('flag_expr/__init__.py', init),
        'from .api import CompiledExpression, evaluate, parse\n\nfrom .errors import ExpressionSyntaxError as SyntaxFault',
      );
    });

    it('is whole code: it parses as Python', async () => {
      assert.ok(await parsesWhole('mdtable/align.py', out), out);
    });
  });

  describe('Go', () => {
    let out = '';
    before(async () => {
      out = await codeInterface('table/table.go', TABLE_GO);
    });

    it('shows the package, exported functions with whole signatures, and methods of exported types', () => {
      assert.ok(out.startsWith('// Package table renders rows as a Markdown table.\npackage table\n'), out);
      assert.ok(out.includes('// New makes a table.\nfunc New(header []string,\n\trows [][]string,\n\talign ...Align) *Table { … }'), out);
      assert.ok(out.includes('func (t *Table) Render(w io.Writer) error { … }'), out);
    });

    it("shows exported types and constants, a struct's exported fields only", () => {
      assert.ok(out.includes('type Table struct {\n\tHeader []string\n\tWidth  int\n}'), out);
      assert.ok(out.includes('const (\n\tLeft Align = iota\n\tRight\n)'), out);
      assert.ok(out.includes('const MaxWidth = 80'), out);
      for (const gone of ['rows   [][]string', 'unexported', 'grow', 'helper', 'Fprintln', 'import'])
        assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
    });

    it('is whole code: it parses once its elisions are made code', async () => {
      assert.ok(await parsesWhole('table/table.go', out), out);
    });
  });

  describe('every source file of the shipped scenarios', () => {
    it('gives an interface that parses whole, without a private or nested name', async () => {
      const files: { path: string; content: string }[] = [];
      for (const name of fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'))) {
        const scenario = parseYaml(fs.readFileSync(path.join(ROOT, 'examples', name), 'utf8')) as { replies: { key?: string; code?: string }[] };
        for (const reply of scenario.replies)
          if (reply.key && typeof reply.code === 'string' && languageOf(reply.key)) files.push({ path: reply.key, content: reply.code });
      }
      assert.ok(files.length >= 10, `the scenarios hold ${files.length} source files`);
      for (const file of files) {
        const shown = await codeInterface(file.path, file.content);
        // A draft written broken on purpose (a fast check refuses it) is shown as written.
        if (!(await parsesWhole(file.path, file.content))) {
          assert.equal(shown, file.content);
          continue;
        }
        if (shown.startsWith('(')) continue;
        assert.ok(await parsesWhole(file.path, shown), `${file.path}:\n${shown}`);
        assert.ok(!/^\s*(def _(?!_)|function _|#\w+\()/m.test(shown), `${file.path} shows a private name:\n${shown}`);
      }
    });
  });

  describe('other files', () => {
    it('gives a short file whole', async () => {
      assert.equal(await codeInterface('README.md', '# wordfreq\n\nCounts words.\n'), '# wordfreq\n\nCounts words.\n');
    });

    it('gives the head of a long one up to a blank line, and says how much is left out', async () => {
      const lines = Array.from({ length: 100 }, (_, i) => (i % 10 === 9 ? '' : `line ${i + 1}`));
      const out = await codeInterface('data/words.txt', lines.join('\n'));
      assert.deepEqual(out.split('\n'), [...lines.slice(0, 39), '(… 61 more lines)']);
    });
  });
});
