/**
 * A long file shown in part (src/ground/text/file-excerpt.ts): where a name is defined in the
 * shapes real code has, and the excerpt — its start, the parts around the names asked about, its end —
 * within the limit, each gap said by its lines.
 */
import assert from 'node:assert/strict';
import { definitionLine, excerpt, isProse, mentionLine, namesMentioned } from '../../../../src/ground/text/file-excerpt.ts';

const filler = (from: number, count: number, prefix = '# filler line'): string[] => Array.from({ length: count }, (_, i) => `${prefix} ${from + i}`);

describe('a long file shown in part', () => {
  it('finds a definition as Python, JavaScript, Go, Rust and TypeScript write one, and a method after its class', () => {
    const python = ['import os', '', 'class Path(ParamType):', '    name = "path"', '', '    def convert(self, value, param, ctx):', '        return value'];
    assert.equal(definitionLine(python, 'Path'), 2);
    assert.equal(definitionLine(python, 'convert'), 5);
    assert.equal(definitionLine(python, 'Path.convert'), 5);
    assert.equal(definitionLine(python, 'Missing'), -1);
    const js = ['var res = Object.create(http.ServerResponse.prototype);', '', 'res.redirect = function redirect(url) {', '  var status = 302;', '};'];
    assert.equal(definitionLine(js, 'res.redirect'), 2);
    assert.equal(definitionLine(js, 'redirect'), 2);
    const go = ['package uuid', '', 'func (uuid UUID) String() string {', '}', 'func Parse(s string) (UUID, error) {'];
    assert.equal(definitionLine(go, 'Parse'), 4);
    assert.equal(definitionLine(go, 'String'), 2);
    const rust = ['pub(crate) fn helper() {}', 'pub struct Options {', '    pub width: usize,', '}'];
    assert.equal(definitionLine(rust, 'Options'), 1);
    const ts = ['export class Command {', '  private _name = "";', '  async parseAsync(argv: string[]) {', '  }', '}', 'export default function program() {}'];
    assert.equal(definitionLine(ts, 'Command.parseAsync'), 2);
    assert.equal(definitionLine(ts, 'program'), 5);
    // A name inside a longer one is not it.
    assert.equal(definitionLine(['def convert_all(x):', 'def convert(x):'], 'convert'), 1);
  });

  it('is the file whole when it fits', () => {
    const text = 'a\nb\n';
    assert.deepEqual(excerpt(text, 100, ['a']), { text, whole: true, found: ['a'], missing: [] });
  });

  it('shows its start, the part around each name asked about and its end, saying which lines it leaves out', () => {
    const lines = [
      ...filler(1, 200),
      'class Path(ParamType):',
      '    def convert(self, value):',
      '        return value',
      ...filler(204, 300),
      'def last():',
      '    pass',
    ];
    const content = `${lines.join('\n')}\n`;
    const shown = excerpt(content, 4000, ['Path', 'Nowhere']);
    assert.equal(shown.whole, false);
    assert.deepEqual(shown.found, ['Path']);
    assert.deepEqual(shown.missing, ['Nowhere']);
    assert.ok(shown.text.length <= 4000 + 400, `within the limit and its gap lines (${shown.text.length})`);
    assert.match(shown.text, /^# filler line 1\n/);
    assert.match(shown.text, /\n# filler line 198\n# filler line 199\n# filler line 200\nclass Path\(ParamType\):\n {4}def convert\(self, value\):\n/);
    assert.match(shown.text, /\ndef last\(\):\n {4}pass\n$/);
    const gaps = [...shown.text.matchAll(/^… \(lines (\d+)–(\d+) of 505 not shown\)$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.equal(gaps.length, 2, shown.text);
    // Every line is either shown or in a gap, once.
    const seen = new Set<number>();
    shown.text.split('\n').forEach((line) => {
      const at = lines.indexOf(line);
      if (at !== -1) seen.add(at + 1);
    });
    for (const [from, to] of gaps) for (let n = from!; n <= to!; n++) assert.ok(!seen.has(n), `line ${n} is shown and said to be left out`);
    assert.equal(seen.size + gaps.reduce((n, [from, to]) => n + to! - from! + 1, 0), 505);
  });

  it("without a name, the file's start and its end (a changelog's newest entries)", () => {
    const lines = ['# History', '', '## Unreleased', '* fix a bug', ...filler(5, 2000, '* an old entry')];
    const shown = excerpt(`${lines.join('\n')}\n`, 3000);
    assert.match(shown.text, /^# History\n\n## Unreleased\n\* fix a bug\n/);
    assert.match(shown.text, /\n\* an old entry 2004\n$/);
    assert.match(shown.text, /^… \(lines \d+–\d+ of 2004 not shown\)$/m);
  });

  it('prefers a member named with its owner, leaves out keywords and built-in types, and keeps at most eight (trial click48b: tuple, str and else took the room of Path.convert)', () => {
    const content = [
      'import collections.abc as cabc',
      'class Path(ParamType):',
      '    name = "path"',
      '    def __init__(self, exists: bool = False, executable: bool = False) -> None:',
      '        self.exists = exists',
      '    def convert(self, value, param, ctx):',
      '        is_dash = self.allow_dash and value == "-"',
      '        if not is_dash:',
      '            return value',
      '        else:',
      '            return tuple(str(v) for v in value)',
    ].join('\n');
    const task =
      'In class Path only: add a tuple of str next to the name, a parameter after `executable` in Path.__init__ (a cabc.Sequence), and in Path.convert, inside the `if not is_dash:` block, else nothing.';
    assert.deepEqual(namesMentioned(task, content), ['Path.__init__', 'Path.convert', 'is_dash', 'name']);
    // A member reached through self is the member.
    assert.deepEqual(namesMentioned('call self.convert on it', content), ['convert']);
  });

  it('puts what the file defines before what it only takes as a parameter, past four names (trial tomli49b: parse_value was left out)', () => {
    const functions = ['key_value_rule', 'parse_key_value_pair', 'parse_array', 'parse_inline_table', 'parse_value', 'make_safe_parse_float'];
    const content = [
      'def loads(__s: str, *, parse_float: ParseFloat = float) -> dict[str, Any]:',
      '    parse_float = make_safe_parse_float(parse_float)',
      ...functions.map((f) => `def ${f}(src: str, pos: Pos, parse_float: ParseFloat) -> Pos:\n    return pos`),
    ].join('\n');
    const task = `Add parse_int after parse_float in ${functions.map((f) => `\`${f}(src, pos, parse_float, parse_int)\``).join(', ')}.`;
    assert.deepEqual(namesMentioned(task, content), [...functions, 'parse_float']);
    const many = Array.from({ length: 10 }, (_, i) => `handle_${i}`);
    const tenDefinitions = many.map((f) => `def ${f}():\n    pass`).join('\n');
    assert.deepEqual(namesMentioned(many.join(', '), tenDefinitions), many.slice(0, 8), 'eight at most');
  });

  it("finds in prose the section that mentions a name, past a table of contents (trial tomli49c: the README's parse_float section was not shown)", () => {
    const readme = [
      '# Tomli',
      '- [Usage](#usage)',
      '- [Construct `decimal.Decimal`s with parse_float](#decimal)',
      '## Usage',
      'Parse a string with `tomllib.loads`.',
      ...Array.from({ length: 60 }, (_, i) => `Filler line ${i} about TOML.`),
      '### Construct `decimal.Decimal`s from TOML floats',
      '',
      '```python',
      'toml_dict = tomllib.loads(toml_str, parse_float=decimal.Decimal)',
      '```',
      ...Array.from({ length: 60 }, (_, i) => `More filler ${i}.`),
    ];
    assert.equal(mentionLine(readme, 'parse_float'), 65, 'the heading of the section, not the table of contents');
    assert.equal(mentionLine(readme, 'no_such_name'), -1);
    const rst = ['Options', '=======', '', 'keyword_case', '   Changes how keywords are formatted.', '', 'strip_comments', '   If True comments are removed.'];
    assert.equal(mentionLine(['intro', ...rst], 'strip_comments'), 1, "reStructuredText's underlined heading");
    const content = `${readme.join('\n')}\n`;
    const names = namesMentioned("Has the 'Construct decimal.Decimals from TOML floats' parse_float section", content, true);
    assert.ok(names.includes('parse_float'), names.join(', '));
    assert.deepEqual(namesMentioned('the parse_float section', content), [], 'in code, only what the file defines');
    const shown = excerpt(content, 1200, ['parse_float']).text;
    assert.match(
      shown,
      /### Construct `decimal\.Decimal`s from TOML floats\n\n```python\ntoml_dict = tomllib\.loads\(toml_str, parse_float=decimal\.Decimal\)/,
    );
    assert.equal(isProse('README.md'), true);
    assert.equal(isProse('docs/source/api.rst'), true);
    assert.equal(isProse('src/tomli/_parser.py'), false);
  });

  it("takes the names a task's words mention that the file defines", () => {
    const content = [
      'var res = module.exports = {};',
      'res.redirect = function redirect(url) {',
      '  var status = 302;',
      '};',
      'res.location = function location(url) {};',
    ].join('\n');
    assert.deepEqual(namesMentioned('Make res.redirect() refuse a status outside 300-308, before anything is sent; keep the one-argument form.', content), [
      'res.redirect',
      'status',
    ]);
  });
});
