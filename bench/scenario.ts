/**
 * A synthetic project for the benchmark, generated in code: one JavaScript module per file of a task
 * graph, and the scripted replies of every role for it — a PRD and its approval, a design with mermaid
 * diagrams, the task graph, each file written and reviewed (every seventh file is sent back once and
 * revised), and one trivial test file. The replies are canned: the benchmark measures the company,
 * not a model.
 */
import { Scenario } from '../src/capabilities/model/scenario.ts';
import type { Graph } from './graphs.ts';

export const filePath = (i: number): string => `src/m${i}.js`;
const className = (i: number): string => `M${i}`;
const fn = (i: number): string => `step${i}`;
const README = 'README.md';

/** Whether file i's first review asks for a revision. */
export const revisedOnce = (i: number): boolean => i % 7 === 3;

/** The module for file i: imports its dependencies and exports one function; its size varies by file. */
export function moduleSource(graph: Graph, i: number, revision: number): string {
  const deps = graph[i]!;
  const lines = [
    ...deps.map((d) => `import { ${fn(d)} } from './m${d}.js';`),
    '',
    `/**`,
    ` * Stage ${i} of the pipeline (revision ${revision}): combines ${deps.length === 0 ? 'its input' : deps.map(fn).join(', ')}.`,
    ` * @param {number} x`,
    ` * @returns {number}`,
    ` */`,
    `export function ${fn(i)}(x) {`,
    `  let value = x + ${i};`,
    ...Array.from({ length: 4 + ((i * 7) % 9) }, (_, k) => `  value = (value * ${k + 3} + ${(i * 13 + k) % 97}) % 1000003; // mixing round ${k} of stage ${i}`),
    ...deps.map((d) => `  value += ${fn(d)}(value % ${d + 2});`),
    `  return value;`,
    `}`,
    '',
  ];
  return lines.join('\n');
}

export function syntheticScenario(graph: Graph, shape: string): Scenario {
  const n = graph.length;
  const name = `bench-${shape}-${n}`;
  const replies: Scenario['replies'] = [];
  const prd = {
    projectName: name,
    summary: `A ${n}-stage numeric pipeline library shaped as a ${shape}.`,
    goals: ['Compute every stage from the stages it depends on', 'Keep every stage a small pure function'],
    userStories: [{ asA: 'developer', iWant: 'to call any stage of the pipeline', soThat: 'I can compose them' }],
    requirementPool: [
      { id: 'R1', description: 'Each stage is a pure function of a number', priority: 'P0' },
      { id: 'R2', description: 'A stage calls only the stages it depends on', priority: 'P0' },
    ],
    acceptanceCriteria: ['Every stage returns a finite number for any finite input'],
    openQuestions: [],
  };
  replies.push({ role: 'product-manager', action: 'write_prd', json: prd });
  replies.push({ role: 'product-manager', action: 'review_prd', json: { approved: true, issues: [] } });

  const classDiagram = [
    'classDiagram',
    ...graph.flatMap((_, i) => [`  class ${className(i)} {`, `    +${fn(i)}(x) number`, '  }']),
    ...graph.flatMap((deps, i) => deps.map((d) => `  ${className(i)} ..> ${className(d)}`)),
  ].join('\n');
  const sequenceDiagram = [
    'sequenceDiagram',
    '  actor Caller',
    ...graph.flatMap((deps, i) => deps.map((d) => `  ${className(i)}->>${className(d)}: ${fn(d)}(x)`)),
    `  Caller->>${className(n - 1)}: ${fn(n - 1)}(1)`,
  ].join('\n');
  const design = {
    summary: `A dependency-free ES module library of ${n} pipeline stages.`,
    approach: 'One module per stage; a stage imports only the stages it depends on and exports one pure function.',
    language: 'JavaScript (ES modules, Node.js 20)',
    testCommand: ['node', '--test'],
    runCommand: null,
    files: [
      ...graph.map((deps, i) => ({ path: filePath(i), purpose: `${fn(i)}(x): stage ${i}${deps.length ? `, using ${deps.map(fn).join(', ')}` : ''}` })),
      // Every design lists the README (the design check sends back one that leaves it out).
      { path: README, purpose: 'what the library does, how to import its last stage, how to run the tests' },
    ],
    classDiagram,
    sequenceDiagram,
  };
  replies.push({ role: 'architect', action: 'write_design', json: design });
  replies.push({
    role: 'architect',
    action: 'write_tasks',
    json: {
      tasks: graph
        .map((deps, i) => ({
          file: filePath(i),
          description: `Export ${fn(i)}(x) as described in the design${deps.length ? `, calling ${deps.map(fn).join(', ')}` : ''}.`,
          dependsOn: deps.map(filePath),
          criteria: [1],
        }))
        .concat([
          {
            file: README,
            description: 'Write the README: the library, importing its last stage, running the tests.',
            dependsOn: [filePath(n - 1)],
            criteria: [1],
          },
        ]),
    },
  });

  graph.forEach((_, i) => {
    const key = filePath(i);
    replies.push({ role: 'engineer', action: 'write_file', key, lang: 'js', code: moduleSource(graph, i, 0) });
    if (revisedOnce(i)) {
      replies.push({ role: 'engineer', action: 'review_file', key, json: { approved: false, issues: [`Document the range of the value ${fn(i)} returns.`] } });
      replies.push({ role: 'engineer', action: 'revise_file', key, lang: 'js', code: moduleSource(graph, i, 1) });
    }
    replies.push({ role: 'engineer', action: 'review_file', key, json: { approved: true, issues: [] } });
  });
  const readme = `# ${name}\n\nA library of ${n} pipeline stages; \`${fn(n - 1)}\` in \`${filePath(n - 1)}\` is the last.\n\nRun the tests with \`node --test\`.\n`;
  replies.push({ role: 'engineer', action: 'write_file', key: README, lang: 'markdown', code: readme });
  replies.push({ role: 'engineer', action: 'review_file', key: README, json: { approved: true, issues: [] } });

  replies.push({
    role: 'qa',
    action: 'write_tests',
    reply: [
      'test/pipeline.test.js',
      '```js',
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      `import { ${fn(n - 1)} } from '../src/m${n - 1}.js';`,
      '',
      `test('AC-1: the last stage returns a finite number', () => {`,
      `  assert.ok(Number.isFinite(${fn(n - 1)}(1)));`,
      '});',
      '```',
    ].join('\n'),
  });
  return Scenario.parse({ spec: `a ${n}-stage numeric pipeline library (${shape})`, name, replies });
}
