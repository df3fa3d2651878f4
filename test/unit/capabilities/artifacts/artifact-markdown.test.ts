/**
 * The artifacts as Markdown — what is committed under docs/ and what the next role's prompt carries —
 * show a model's text as written: a `|`, a line break, a backtick or a fence inside it garbles nothing.
 */
import assert from 'node:assert/strict';
import { markdownToHtml } from '../../../../src/apps/review/index.ts';
import { documentMarkdown } from '../../../../src/capabilities/artifacts/document-markdown.ts';
import { renderDesign } from '../../../../src/capabilities/artifacts/render/design.ts';
import { renderPrd } from '../../../../src/capabilities/artifacts/render/prd.ts';
import { renderTasks } from '../../../../src/capabilities/artifacts/render/tasks.ts';
import type { Design, PRD } from '../../../../src/documents/index.ts';
import { codeSpan, fence } from '../../../../src/ground/markdown.ts';

const PIPES = 'Align columns with `|:---|---:|` markers; a cell may hold `a | b` (escaped as `\\|`)';
const TWO_LINES = 'Read the CSV from a file or stdin.\nAn empty input prints nothing and exits 0.';

const prd: PRD = {
  projectName: 'csv2md',
  summary: 'Turns CSV into a Markdown table.',
  goals: ['Convert CSV | TSV input'],
  userStories: [{ asA: 'writer', iWant: 'tables from `data.csv`', soThat: 'I paste them into docs' }],
  requirementPool: [
    { id: 'R1', description: PIPES, priority: 'P0' },
    { id: 'R2', description: TWO_LINES, priority: 'P1' },
  ],
  acceptanceCriteria: ['`csv2md a.csv` prints `| a | b |` for a header "a,b"', TWO_LINES],
  openQuestions: [],
};

const design: Design = {
  summary: 'A small pipeline.',
  approach: 'Parse | align | render.',
  language: 'Python 3.11',
  testCommand: ['python', '-m', 'unittest'],
  runCommand: ['python', '-m', 'csv2md'],
  dependencies: [{ name: 'left-pad', range: '^1.0.0 || ^2.0.0', kind: 'runtime' }],
  files: [
    { path: 'csv2md/render.py', purpose: 'render(rows) -> str: joins cells with " | " and escapes `|` as `\\|`' },
    { path: 'csv2md/parse.py', purpose: TWO_LINES },
  ],
  classDiagram: 'classDiagram\n  class Table {\n    +render() str\n  }',
  sequenceDiagram: 'sequenceDiagram\n  User->>Cli: csv2md a.csv\n  Cli-->>User: a | b',
};

describe('artifacts as Markdown', () => {
  it('shows each PRD requirement as written: its `|`, its backticks and its lines', () => {
    const md = renderPrd(prd);
    assert.ok(md.includes(`- R1 (P0): ${PIPES}\n`), md);
    assert.ok(md.includes('- R2 (P1): Read the CSV from a file or stdin.\n  An empty input prints nothing and exits 0.\n'), md);
    assert.ok(md.includes('- AC-1: `csv2md a.csv` prints `| a | b |` for a header "a,b"\n- AC-2: Read the CSV from a file or stdin.\n  An empty input'), md);
    assert.ok(!md.includes('\\|:'), 'no pipe is escaped');
  });

  it('renders the PRD as HTML with each requirement whole in its own list item', () => {
    const html = markdownToHtml(renderPrd(prd));
    assert.ok(html.includes('<code>|:---|---:|</code>'), html);
    assert.match(html, /<li>R2 \(P1\): Read the CSV from a file or stdin\.\s*An empty input prints nothing and exits 0\.<\/li>/);
  });

  it("shows a design's files, commands and packages as written", () => {
    const md = renderDesign(design, 'csv2md');
    assert.ok(md.includes('- `csv2md/render.py`: render(rows) -> str: joins cells with " | " and escapes `|` as `\\|`\n'), md);
    assert.ok(md.includes('- `csv2md/parse.py`: Read the CSV from a file or stdin.\n  An empty input prints nothing and exits 0.\n'), md);
    assert.ok(md.includes('- `left-pad` `^1.0.0 || ^2.0.0` (runtime)'), md);
    assert.ok(md.includes('- Test: `python -m unittest`'), md);
    assert.ok(md.includes('```mermaid\nsequenceDiagram\n  User->>Cli: csv2md a.csv\n  Cli-->>User: a | b\n```'), md);
  });

  it("shows a task's description as written, in the order the tasks are done", () => {
    const md = renderTasks({
      tasks: [
        { file: 'csv2md/render.py', description: PIPES, dependsOn: ['csv2md/parse.py'] },
        { file: 'csv2md/parse.py', description: TWO_LINES, dependsOn: [] },
      ],
    });
    assert.ok(md.includes('1. `csv2md/parse.py` (after nothing): Read the CSV from a file or stdin.\n   An empty input prints nothing and exits 0.\n'), md);
    assert.ok(md.includes(`2. \`csv2md/render.py\` (after \`csv2md/parse.py\`): ${PIPES}\n`), md);
  });

  it('keeps a file that holds its own fences inside a longer fence', () => {
    const readme = '# csv2md\n\n```sh\ncsv2md a.csv\n```\n\n````md\nnested\n````\n';
    const md = documentMarkdown({ path: 'README.md', content: readme }, 'csv2md');
    assert.equal(md, `### README.md\n\n\`\`\`\`\`\n${readme}\`\`\`\`\``);
    const html = markdownToHtml(md);
    assert.ok(html.includes('```sh') && html.includes('nested'), html);
  });

  it('makes code spans and fences that hold any backticks', () => {
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`x`'), '`` `x` ``');
    assert.equal(fence('plain\n'), '```\nplain\n```');
    assert.equal(fence('```\nx\n```', 'md'), '````md\n```\nx\n```\n````');
  });
});
