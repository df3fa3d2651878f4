/**
 * Writes the scripted scenarios of the shipped evaluation suite (examples/eval/): ten small Node.js CLI
 * projects, each a library module, a CLI over it and a manifest, with the replies every role of the
 * default SOPs gives for them (PRD and its approval, design, task graph, each file written and approved,
 * the tests). Like examples/wordfreq.yaml they replay canned replies — they exercise the company and the
 * eval machinery offline, they generate nothing. Rerun after changing a project:
 *
 *   node --import tsx bench/eval-scenarios.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { Scenario } from '../src/capabilities/model/scenario.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EVAL_DIR = path.join(ROOT, 'examples', 'eval');

interface Project {
  name: string;
  spec: string;
  /** The library: its file name under src/, what it exports, and its source. */
  lib: { file: string; exports: string; source: string };
  /** src/cli.js: reads its arguments, prints the result. */
  cli: string;
  /** The example arguments of the CLI (the suite's entry-point check) and what it must print. */
  example: { args: string[]; prints: string };
  /** The body of test/<name>.test.js after its imports. */
  tests: string;
}

const cliOver = (lib: string, fn: string, body: string): string => `#!/usr/bin/env node
import { ${fn} } from './${lib}';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node src/cli.js <input...>');
  process.exit(2);
}
${body}
`;

const PROJECTS: Project[] = [
  {
    name: 'slugify',
    spec: 'a CLI that turns titles into URL slugs',
    lib: {
      file: 'slug.js',
      exports: 'slugify(title)',
      source: `/** Lower-case words of a title joined by dashes, without accents or punctuation. */\nexport function slugify(title) {\n  return title\n    .normalize('NFKD')\n    .replace(/[\\u0300-\\u036f]/g, '')\n    .toLowerCase()\n    .replace(/[^a-z0-9]+/g, '-')\n    .replace(/^-+|-+$/g, '');\n}\n`,
    },
    cli: cliOver('slug.js', 'slugify', "console.log(slugify(args.join(' ')));"),
    example: { args: ['Hello,', 'Wörld!'], prints: 'hello-world' },
    tests: `test('slugify joins words with dashes', () => {\n  assert.equal(slugify('Hello, Wörld!'), 'hello-world');\n});\n\ntest('slugify trims separators', () => {\n  assert.equal(slugify('  --a  b-- '), 'a-b');\n});\n`,
  },
  {
    name: 'roman',
    spec: 'a CLI that converts numbers to Roman numerals',
    lib: {
      file: 'roman.js',
      exports: 'toRoman(n)',
      source: `const NUMERALS = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];\n\n/** The Roman numeral of a whole number from 1 to 3999. */\nexport function toRoman(n) {\n  if (!Number.isInteger(n) || n < 1 || n > 3999) throw new RangeError('expected a whole number from 1 to 3999');\n  let out = '';\n  for (const [value, numeral] of NUMERALS) {\n    while (n >= value) {\n      out += numeral;\n      n -= value;\n    }\n  }\n  return out;\n}\n`,
    },
    cli: cliOver('roman.js', 'toRoman', 'for (const arg of args) console.log(toRoman(Number(arg)));'),
    example: { args: ['1994'], prints: 'MCMXCIV' },
    tests: `test('toRoman converts subtractive forms', () => {\n  assert.equal(toRoman(1994), 'MCMXCIV');\n  assert.equal(toRoman(4), 'IV');\n});\n\ntest('toRoman rejects zero', () => {\n  assert.throws(() => toRoman(0), RangeError);\n});\n`,
  },
  {
    name: 'fizzbuzz',
    spec: 'a CLI that prints FizzBuzz up to a number',
    lib: {
      file: 'fizzbuzz.js',
      exports: 'fizzbuzz(n)',
      source: `/** The FizzBuzz words from 1 to n. */\nexport function fizzbuzz(n) {\n  return Array.from({ length: n }, (_, i) => {\n    const k = i + 1;\n    return k % 15 === 0 ? 'FizzBuzz' : k % 3 === 0 ? 'Fizz' : k % 5 === 0 ? 'Buzz' : String(k);\n  });\n}\n`,
    },
    cli: cliOver('fizzbuzz.js', 'fizzbuzz', "console.log(fizzbuzz(Number(args[0])).join('\\n'));"),
    example: { args: ['15'], prints: 'FizzBuzz' },
    tests: `test('fizzbuzz names multiples of 3 and 5', () => {\n  assert.deepEqual(fizzbuzz(5), ['1', '2', 'Fizz', '4', 'Buzz']);\n  assert.equal(fizzbuzz(15)[14], 'FizzBuzz');\n});\n`,
  },
  {
    name: 'temperature',
    spec: 'a CLI that converts temperatures between Celsius and Fahrenheit',
    lib: {
      file: 'convert.js',
      exports: 'convert(value, unit)',
      source: `/** Converts a temperature given in C to F, or in F to C, rounded to one decimal. */\nexport function convert(value, unit) {\n  if (unit === 'C') return Math.round((value * 9) / 5 * 10 + 320) / 10;\n  if (unit === 'F') return Math.round(((value - 32) * 5) / 9 * 10) / 10;\n  throw new RangeError('unit must be C or F');\n}\n`,
    },
    cli: cliOver(
      'convert.js',
      'convert',
      "const match = /^(-?[\\d.]+)([CF])$/i.exec(args[0]);\nif (!match) {\n  console.error('give a temperature such as 100C or 212F');\n  process.exit(2);\n}\nconsole.log(convert(Number(match[1]), match[2].toUpperCase()));",
    ),
    example: { args: ['100C'], prints: '212' },
    tests: `test('convert turns Celsius into Fahrenheit', () => {\n  assert.equal(convert(100, 'C'), 212);\n  assert.equal(convert(-40, 'C'), -40);\n});\n\ntest('convert turns Fahrenheit into Celsius', () => {\n  assert.equal(convert(212, 'F'), 100);\n});\n`,
  },
  {
    name: 'palindrome',
    spec: 'a CLI that says whether phrases are palindromes',
    lib: {
      file: 'palindrome.js',
      exports: 'isPalindrome(text)',
      source: `/** Whether text reads the same backwards, ignoring case, spaces and punctuation. */\nexport function isPalindrome(text) {\n  const letters = text.toLowerCase().replace(/[^a-z0-9]/g, '');\n  return letters === [...letters].reverse().join('');\n}\n`,
    },
    cli: cliOver('palindrome.js', 'isPalindrome', "const phrase = args.join(' ');\nconsole.log(isPalindrome(phrase) ? 'yes' : 'no');"),
    example: { args: ['A', 'man,', 'a', 'plan,', 'a', 'canal:', 'Panama'], prints: 'yes' },
    tests: `test('isPalindrome ignores case and punctuation', () => {\n  assert.equal(isPalindrome('A man, a plan, a canal: Panama'), true);\n});\n\ntest('isPalindrome rejects other phrases', () => {\n  assert.equal(isPalindrome('sopworks'), false);\n});\n`,
  },
  {
    name: 'caesar',
    spec: 'a CLI that encrypts text with a Caesar cipher',
    lib: {
      file: 'caesar.js',
      exports: 'shift(text, key)',
      source: `/** Shifts each Latin letter of text by key places, keeping case; other characters stay. */\nexport function shift(text, key) {\n  const k = ((key % 26) + 26) % 26;\n  return text.replace(/[a-z]/gi, (c) => {\n    const base = c <= 'Z' ? 65 : 97;\n    return String.fromCharCode(((c.charCodeAt(0) - base + k) % 26) + base);\n  });\n}\n`,
    },
    cli: cliOver('caesar.js', 'shift', "const [key, ...words] = args;\nconsole.log(shift(words.join(' '), Number(key)));"),
    example: { args: ['3', 'Hello'], prints: 'Khoor' },
    tests: `test('shift moves letters and keeps case', () => {\n  assert.equal(shift('Hello, xyz', 3), 'Khoor, abc');\n});\n\ntest('a negative key undoes a shift', () => {\n  assert.equal(shift(shift('Attack', 5), -5), 'Attack');\n});\n`,
  },
  {
    name: 'leapyear',
    spec: 'a CLI that tells whether years are leap years',
    lib: {
      file: 'leap.js',
      exports: 'isLeapYear(year)',
      source: `/** Gregorian leap years: every 4th year, except centuries not divisible by 400. */\nexport function isLeapYear(year) {\n  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;\n}\n`,
    },
    cli: cliOver('leap.js', 'isLeapYear', "for (const arg of args) console.log(`${arg} ${isLeapYear(Number(arg)) ? 'leap' : 'common'}`);"),
    example: { args: ['2000', '1900'], prints: '2000 leap' },
    tests: `test('isLeapYear follows the Gregorian rule', () => {\n  assert.equal(isLeapYear(2024), true);\n  assert.equal(isLeapYear(1900), false);\n  assert.equal(isLeapYear(2000), true);\n});\n`,
  },
  {
    name: 'colsum',
    spec: 'a CLI that sums a column of comma-separated numbers',
    lib: {
      file: 'colsum.js',
      exports: 'sumColumn(rows, column)',
      source: `/** The sum of one column (0-based) of comma-separated rows; blank rows are skipped. */\nexport function sumColumn(rows, column) {\n  return rows\n    .filter((row) => row.trim() !== '')\n    .map((row) => Number(row.split(',')[column]))\n    .reduce((total, value) => total + (Number.isFinite(value) ? value : 0), 0);\n}\n`,
    },
    cli: cliOver('colsum.js', 'sumColumn', 'const [column, ...rows] = args;\nconsole.log(sumColumn(rows, Number(column)));'),
    example: { args: ['1', 'a,2', 'b,3'], prints: '5' },
    tests: `test('sumColumn adds one column', () => {\n  assert.equal(sumColumn(['a,1,2', 'b,3,4', ''], 2), 6);\n});\n\ntest('sumColumn ignores values that are not numbers', () => {\n  assert.equal(sumColumn(['x,y', 'z,2'], 1), 2);\n});\n`,
  },
  {
    name: 'fibonacci',
    spec: 'a CLI that prints the first n Fibonacci numbers',
    lib: {
      file: 'fib.js',
      exports: 'fibonacci(n)',
      source: `/** The first n Fibonacci numbers, as BigInts so large n stay exact. */\nexport function fibonacci(n) {\n  const out = [];\n  let [a, b] = [0n, 1n];\n  for (let i = 0; i < n; i++) {\n    out.push(a);\n    [a, b] = [b, a + b];\n  }\n  return out;\n}\n`,
    },
    cli: cliOver('fib.js', 'fibonacci', "console.log(fibonacci(Number(args[0])).join(' '));"),
    example: { args: ['10'], prints: '0 1 1 2 3 5 8 13 21 34' },
    tests: `test('fibonacci starts 0 1 1 2', () => {\n  assert.deepEqual(fibonacci(5), [0n, 1n, 1n, 2n, 3n]);\n});\n\ntest('fibonacci stays exact for large n', () => {\n  assert.equal(fibonacci(100)[99], 218922995834555169026n);\n});\n`,
  },
  {
    name: 'vowels',
    spec: 'a CLI that counts the vowels in text',
    lib: {
      file: 'vowels.js',
      exports: 'countVowels(text)',
      source: `/** How many of a, e, i, o, u (either case) text contains. */\nexport function countVowels(text) {\n  return (text.match(/[aeiou]/gi) ?? []).length;\n}\n`,
    },
    cli: cliOver('vowels.js', 'countVowels', "console.log(countVowels(args.join(' ')));"),
    example: { args: ['Software', 'company'], prints: '5' },
    tests: `test('countVowels counts either case', () => {\n  assert.equal(countVowels('AEIOU aeiou xyz'), 10);\n});\n\ntest('countVowels of no vowels is 0', () => {\n  assert.equal(countVowels('rhythm'), 0);\n});\n`,
  },
];

/** The scripted replies of one project under the default SOPs. */
export function projectScenario(project: Project): Scenario {
  const lib = `src/${project.lib.file}`;
  const fn = project.lib.exports.replace(/\(.*$/, '');
  const manifest =
    JSON.stringify(
      {
        name: project.name,
        version: '1.0.0',
        type: 'module',
        bin: { [project.name]: 'src/cli.js' },
        scripts: { test: 'node --test' },
        engines: { node: '>=20' },
        license: 'MIT',
      },
      null,
      2,
    ) + '\n';
  const files = [
    { path: 'package.json', purpose: 'Package manifest: ES modules, the bin, npm test', code: manifest, lang: 'json', deps: [] as string[] },
    { path: lib, purpose: `${project.lib.exports}: the logic, a pure function`, code: project.lib.source, lang: 'js', deps: [] },
    { path: 'src/cli.js', purpose: `the executable: parses its arguments and prints ${fn}'s result`, code: project.cli, lang: 'js', deps: [lib] },
  ];
  const testFile = `test/${project.name}.test.js`;
  const replies: Scenario['replies'] = [
    {
      role: 'product-manager',
      action: 'write_prd',
      json: {
        projectName: project.name,
        summary: `A dependency-free Node.js command-line tool: ${project.spec.replace(/^a CLI that /, '')}.`,
        goals: [`Expose ${project.lib.exports} as a library function`, 'Offer it on the command line'],
        userStories: [{ asA: 'user', iWant: project.spec.replace(/^a CLI that /, 'a tool that '), soThat: 'I do not do it by hand' }],
        requirementPool: [
          { id: 'R1', description: `${project.lib.exports} returns the documented result`, priority: 'P0' },
          { id: 'R2', description: 'The CLI prints the result of its arguments and exits 2 without any', priority: 'P0' },
        ],
        acceptanceCriteria: [`\`node src/cli.js ${project.example.args.join(' ')}\` prints ${project.example.prints}`],
        openQuestions: [],
      },
    },
    { role: 'product-manager', action: 'review_prd', json: { approved: true, issues: [] } },
    {
      role: 'architect',
      action: 'write_design',
      json: {
        summary: `A Node.js ES module library (${lib}) and a thin CLI over it.`,
        approach: 'The logic is one pure function; the CLI only parses its arguments and prints.',
        language: 'JavaScript (ES modules, Node.js 20)',
        testCommand: ['node', '--test'],
        runCommand: ['node', 'src/cli.js', ...project.example.args],
        files: files.map((f) => ({ path: f.path, purpose: f.purpose })),
        classDiagram: `classDiagram\n  class Lib {\n    +${project.lib.exports}\n  }\n  class Cli {\n    +main(argv)\n  }\n  Cli ..> Lib`,
        sequenceDiagram: `sequenceDiagram\n  actor User\n  User->>Cli: node src/cli.js ${project.example.args.join(' ')}\n  Cli->>Lib: ${fn}(...)\n  Cli-->>User: ${project.example.prints}`,
      },
    },
    {
      role: 'architect',
      action: 'write_tasks',
      json: { tasks: files.map((f) => ({ file: f.path, description: `Write ${f.path}: ${f.purpose}.`, dependsOn: f.deps })) },
    },
    ...files.flatMap((f) => [
      { role: 'engineer', action: 'write_file', key: f.path, lang: f.lang, code: f.code },
      { role: 'engineer', action: 'review_file', key: f.path, json: { approved: true, issues: [] } },
    ]),
    {
      role: 'qa',
      action: 'write_tests',
      reply: [
        testFile,
        '```js',
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "import { spawnSync } from 'node:child_process';",
        `import { ${fn} } from '../${lib}';`,
        '',
        project.tests.trimEnd(),
        '',
        criterionTest(project.example.args, project.example.prints),
        '```',
        '',
      ].join('\n'),
    },
  ];
  return Scenario.parse({ spec: project.spec, name: project.name, replies });
}

/** The test proving the PRD's one criterion (AC-1: the CLI prints the example's result), named by its id as QA is asked to. */
const criterionTest = (args: string[], prints: string): string =>
  [
    `test(${JSON.stringify(`AC-1: node src/cli.js ${args.join(' ')} prints ${prints}`)}, () => {`,
    `  const r = spawnSync(process.execPath, ['src/cli.js', ...${JSON.stringify(args)}], { encoding: 'utf8' });`,
    '  assert.equal(r.status, 0, r.stderr);',
    `  assert.ok(r.stdout.includes(${JSON.stringify(prints)}), r.stdout);`,
    '});',
  ].join('\n');

/** The suite file listing every project, with its entry point and a check on what it prints. */
export function suiteDocument(): Record<string, unknown> {
  return {
    name: 'small-cli-projects',
    description: 'Ten small Node.js CLI projects and wordfreq, on scripted scenarios: the eval machinery, offline.',
    concurrency: 3,
    specs: [
      ...PROJECTS.map((p) => ({
        name: p.name,
        scenario: `${p.name}.yaml`,
        entry: ['node', 'src/cli.js', ...p.example.args],
        checks: [{ name: `prints ${p.example.prints}`, run: ['node', '-e', checkScript(p.example.args, p.example.prints)] }],
      })),
      { name: 'wordfreq', scenario: '../wordfreq.yaml', entry: ['node', 'src/cli.js', 'README.md'] },
    ],
  };
}

/** A node -e script: runs the CLI and fails unless its output contains the expected text. */
const checkScript = (args: string[], prints: string): string =>
  `const r = require('node:child_process').spawnSync(process.execPath, ['src/cli.js', ...${JSON.stringify(args)}], { encoding: 'utf8' }); if (r.status !== 0 || !r.stdout.includes(${JSON.stringify(prints)})) { console.error(r.stdout + r.stderr); process.exit(1); }`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await fs.mkdir(EVAL_DIR, { recursive: true });
  const header = (p: Project) =>
    `# Scripted scenario of the eval suite (suite.yaml): ${p.spec}.\n# Generated by bench/eval-scenarios.ts — canned replies that show the machinery, not generation.\n`;
  for (const project of PROJECTS) {
    await fs.writeFile(path.join(EVAL_DIR, `${project.name}.yaml`), header(project) + stringify(projectScenario(project), { lineWidth: 0 }));
  }
  await fs.writeFile(
    path.join(EVAL_DIR, 'suite.yaml'),
    '# The shipped evaluation suite: sopworks eval examples/eval/suite.yaml (docs/eval.md).\n# Generated by bench/eval-scenarios.ts.\n' +
      stringify(suiteDocument(), { lineWidth: 0 }),
  );
  process.stdout.write(`wrote ${PROJECTS.length} scenarios and suite.yaml to ${path.relative(process.cwd(), EVAL_DIR)}\n`);
}
