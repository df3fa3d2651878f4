/**
 * `npm run bench:change`: prompt tokens per model call of a change run, against the repository's size.
 * Synthetic repositories — 20, 500 and 2000 source files (sizes adjustable) — get the same scripted
 * change through the real CLI (`sopworks change`); the tokens of every prompt sent are read back from
 * the run's exchange log. What a call is sent is the bounded map and the files asked for, so the
 * figure per call should stay about the same while the repository grows 25-fold.
 *
 *   npm run bench:change -- [--sizes 20,500,2000] [--json FILE]
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { stringify } from 'yaml';

const exec = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '20,500,2000' }, json: { type: 'string' } } });
const sizes = values.sizes!.split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 2)) {
  console.error('usage: npm run bench:change -- [--sizes 20,500,2000] [--json FILE]   (sizes: whole numbers of 2 or more)');
  process.exit(2);
}

/** A repository of `files` JavaScript modules in ten folders, one test, one commit. */
async function syntheticRepository(dir: string, files: number): Promise<void> {
  await fs.mkdir(path.join(dir, 'test'), { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), '{ "name": "synthetic", "type": "module", "scripts": { "test": "node --test" } }\n');
  await fs.writeFile(path.join(dir, 'README.md'), `# synthetic\n\n${files} modules that each add a number.\n`);
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, 'src', `area${i % 10}`);
    await fs.mkdir(folder, { recursive: true });
    const body = Array.from({ length: 30 }, (_, k) => `  const v${k} = a * ${k} + b; // step ${k} of module ${i}`).join('\n');
    await fs.writeFile(path.join(folder, `mod${i}.js`), `/** Module ${i}. */\nexport function add${i}(a, b) {\n${body}\n  return a + b + ${i};\n}\n`);
  }
  await fs.writeFile(
    path.join(dir, 'test', 'mod0.test.js'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add0 } from '../src/area0/mod0.js';\ntest('add0', () => assert.equal(add0(1, 2), 3));\n",
  );
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'synthetic');
}

/** The same change whatever the size: module 0 gains a subtract function, with a test. */
const scenario = {
  spec: 'add a subtract function to module 0',
  replies: [
    {
      role: 'product-manager',
      action: 'write_change_request',
      json: {
        title: 'subtract0',
        summary: 'Module 0 gains subtract0(a, b).',
        changes: ['subtract0(a, b) returns a - b.'],
        acceptanceCriteria: ['subtract0(5, 3) is 2.'],
        mustKeepWorking: ['add0.'],
        outOfScope: ['Other modules.'],
      },
    },
    {
      role: 'architect',
      action: 'choose_files',
      json: {
        files: [
          { path: 'src/area0/mod0.js', why: 'the module to change' },
          { path: 'test/mod0.test.js', why: 'its test' },
        ],
      },
    },
    {
      role: 'architect',
      action: 'write_design_delta',
      json: {
        summary: 'subtract0 beside add0.',
        approach: 'One more export in mod0.js.',
        language: 'JavaScript',
        testCommand: ['node', '--test'],
        runCommand: null,
        files: [{ path: 'src/area0/mod0.js', purpose: 'add0 and subtract0' }],
        unchanged: ['every other module'],
        classDiagram: 'classDiagram\n  class mod0 { +add0(a, b) +subtract0(a, b) }',
        sequenceDiagram: 'sequenceDiagram\n  participant C as caller\n  participant M as mod0\n  C->>M: subtract0(a, b)',
      },
    },
    {
      role: 'architect',
      action: 'write_change_tasks',
      json: { tasks: [{ file: 'src/area0/mod0.js', op: 'modify', from: null, description: 'Export subtract0(a, b) returning a - b.', dependsOn: [] }] },
    },
    {
      role: 'engineer',
      action: 'edit_file',
      key: 'src/area0/mod0.js',
      reply:
        '<<<<<<< SEARCH\n  return a + b + 0;\n}\n=======\n  return a + b + 0;\n}\n\nexport function subtract0(a, b) {\n  return a - b;\n}\n>>>>>>> REPLACE\n',
    },
    { role: 'engineer', action: 'review_edit', key: 'src/area0/mod0.js', json: { approved: true, issues: [] } },
    {
      role: 'qa',
      action: 'write_change_tests',
      reply:
        "test/subtract0.test.js\n```js\nimport { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add0, subtract0 } from '../src/area0/mod0.js';\ntest('AC-1: subtract0(5, 3) is 2', () => assert.equal(subtract0(5, 3), 2));\ntest('KW-1: add0 still adds', () => assert.equal(add0(2, 3), 5));\n```\n",
    },
  ],
};

interface Row {
  files: number;
  calls: number;
  promptTokensPerCall: number;
  largestPrompt: number;
  byAction: Record<string, number>;
  outcome: string;
}

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'sopworks-bench-change-'));
try {
  const scenarioFile = path.join(work, 'scenario.yaml');
  await fs.writeFile(scenarioFile, stringify(scenario));
  const rows: Row[] = [];
  for (const files of sizes) {
    const repo = path.join(work, `repo-${files}`);
    await syntheticRepository(repo, files);
    const out = path.join(work, `out-${files}`);
    // The summary is read as text: no colours, even where CI=true would turn them on.
    const run = await exec(process.execPath, [path.join(ROOT, 'bin', 'sopworks.js'), 'change', repo, '--llm', `scripted:${scenarioFile}`, '--out', out], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    }).catch((error: { stdout: string; stderr: string }) => error);
    const outcome = /^Outcome\s+(\S+)/m.exec(run.stdout)?.[1] ?? 'none';
    const [folder] = await fs.readdir(out);
    const records = (await fs.readFile(path.join(out, folder!, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; usage: { promptTokens: number } });
    const byAction: Record<string, number> = {};
    for (const r of records) byAction[r.action] = Math.max(byAction[r.action] ?? 0, r.usage.promptTokens);
    const total = records.reduce((n, r) => n + r.usage.promptTokens, 0);
    rows.push({
      files,
      calls: records.length,
      promptTokensPerCall: Math.round(total / records.length),
      largestPrompt: Math.max(...records.map((r) => r.usage.promptTokens)),
      byAction,
      outcome,
    });
  }
  const first = rows[0]!;
  console.log('files  outcome  calls  prompt tokens/call  largest prompt  ratio to the smallest');
  for (const row of rows) {
    console.log(
      `${String(row.files).padStart(5)}  ${row.outcome.padEnd(7)}  ${String(row.calls).padStart(5)}  ${String(row.promptTokensPerCall).padStart(18)}  ${String(row.largestPrompt).padStart(14)}  ${(row.promptTokensPerCall / first.promptTokensPerCall).toFixed(2)}`,
    );
  }
  console.log('\nlargest prompt per action (tokens):');
  for (const action of Object.keys(first.byAction))
    console.log(`  ${action.padEnd(22)} ${rows.map((r) => `${r.files} files: ${r.byAction[action] ?? '-'}`).join('   ')}`);
  if (values.json) await fs.writeFile(values.json, JSON.stringify(rows, null, 2) + '\n');
} finally {
  await fs.rm(work, { recursive: true, force: true });
}
