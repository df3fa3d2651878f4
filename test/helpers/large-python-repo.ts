/**
 * A Python repository of 680 files in the shape a mature test framework's has — a package under src/
 * with its plugins, hundreds of test modules and example scripts, a documentation tree, a changelog
 * folder of numbered fragments, long root files (README, pyproject.toml with many tool sections, tox.ini,
 * a CONTRIBUTING guide with coding sections) — written here, deterministically: the repository whose
 * change's first prompt must stay bounded (test/integration/change-first-prompt.test.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

const WORDS = [
  'fixture',
  'config',
  'session',
  'marker',
  'report',
  'capture',
  'collect',
  'runner',
  'warning',
  'assertion',
  'plugin',
  'hook',
  'node',
  'option',
  'cache',
  'tmp',
  'path',
  'output',
  'terminal',
  'python',
];
const word = (i: number) => WORDS[i % WORDS.length]!;
const prose = (seed: number, chars: number): string => {
  const sentences: string[] = [];
  for (let i = 0; sentences.join(' ').length < chars; i++) {
    sentences.push(
      `The ${word(seed + i)} ${word(seed + 3 * i + 1)} keeps each ${word(seed + 5 * i + 2)} of the ${word(seed + 7 * i + 3)} as the ${word(i)} asks, and says so when it cannot.`,
    );
  }
  return sentences.join(' ');
};

function module(i: number): string {
  const lines = [`"""The ${word(i)} ${word(i + 1)} plugin: ${prose(i, 160)}"""`, 'from __future__ import annotations', '', 'import os', 'import sys', ''];
  for (let k = 0; k < 8; k++) {
    const name = `${word(i + k)}_${word(i + 2 * k + 1)}_${k}`;
    if (k % 3 === 0)
      lines.push(
        `class ${word(i + k)[0]!.toUpperCase()}${word(i + k).slice(1)}${k}:`,
        `    """${prose(i + k, 80)}"""`,
        '',
        `    def ${name}(self, value: str, *, strict: bool = False) -> str:`,
        '        return value if strict else value.strip()',
        '',
      );
    else lines.push(`def ${name}(config, ${word(k)}: int = ${k}) -> list[str]:`, `    """${prose(i + k, 60)}"""`, `    return [str(config)] * ${word(k)}`, '');
  }
  return `${lines.join('\n')}\n`;
}

const test = (i: number): string =>
  `import pytest\n\n\ndef test_${word(i)}_${i}(pytester):\n    assert pytester is not None\n\n\ndef test_${word(i + 1)}_${i}_again():\n    assert ${i} == ${i}\n`;

/** Its files and their content, by path. */
export function largePythonFiles(): Map<string, string> {
  const out = new Map<string, string>();
  out.set('README.rst', `pytest\n======\n\n${prose(1, 6000)}\n`);
  const tools = ['ruff', 'mypy', 'coverage', 'towncrier', 'setuptools_scm', 'pylint', 'codespell', 'check-wheel-contents'];
  out.set(
    'pyproject.toml',
    `[build-system]\nrequires = ["setuptools>=61", "setuptools-scm[toml]>=6.2.3"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "framework"\ndescription = "${prose(2, 80)}"\nreadme = "README.rst"\nrequires-python = ">=3.9"\ndependencies = ["iniconfig", "packaging", "pluggy>=1.5,<2", "tomli>=1; python_version < '3.11'"]\n\n[project.optional-dependencies]\ndev = ["argcomplete", "attrs>=19.2", "hypothesis>=3.56", "mock", "requests", "setuptools", "xmlschema"]\n\n${tools
      .map((tool, i) => `[tool.${tool}]\n${Array.from({ length: 14 }, (_, k) => `${word(i + k)}_${k} = "${prose(i + k, 60)}"`).join('\n')}\n`)
      .join('\n')}\n[tool.pytest.ini_options]\nminversion = "2.0"\naddopts = "-rfEX -p pytester --strict-markers"\ntestpaths = ["testing"]\n`,
  );
  out.set(
    'tox.ini',
    `[tox]\nenvlist = linting, py39, py310, py311, py312, docs\n\n[testenv]\ncommands = pytest {posargs:testing}\n\n${Array.from({ length: 12 }, (_, i) => `[testenv:${word(i)}]\ndescription = ${prose(i, 120)}\ncommands = python -m ${word(i)}\n`).join('\n')}`,
  );
  out.set(
    'CONTRIBUTING.rst',
    `Contribution getting started\n============================\n\n${prose(3, 4000)}\n\nCode style\n----------\n\n${prose(4, 3000)}\n\nWriting tests\n-------------\n\n${prose(5, 3000)}\n\nReleases\n--------\n\n${prose(6, 3000)}\n`,
  );
  for (const name of [
    'AUTHORS',
    'CHANGELOG.rst',
    'CODE_OF_CONDUCT.md',
    'LICENSE',
    'RELEASING.rst',
    'TIDELIFT.rst',
    'CITATION',
    'codecov.yml',
    '.pre-commit-config.yaml',
    '.readthedocs.yaml',
    '.mailmap',
    'OPENCOLLECTIVE.rst',
  ])
    out.set(name, `${prose(name.length, 1500)}\n`);
  out.set('.gitignore', '*.pyc\n.tox/\nbuild/\n');
  out.set('.gitattributes', 'doc/en/*.rst linguist-documentation\n');
  for (let i = 0; i < 70; i++) out.set(`src/_framework/${i < 10 ? `${word(i)}` : `${word(i)}_${i}`}.py`, module(i));
  for (let i = 0; i < 6; i++) out.set(`src/_framework/_code/${word(i + 3)}.py`, module(100 + i));
  out.set(
    'src/framework/__init__.py',
    `"""The framework's public names."""\n${Array.from({ length: 60 }, (_, i) => `from _framework.${word(i)} import ${word(i)}_${word(i + 1)}_${i % 8} as ${word(i)}${i}`).join('\n')}\n`,
  );
  out.set('src/framework/__main__.py', 'import framework\n\nraise SystemExit(framework.console_main())\n');
  for (let i = 0; i < 200; i++) out.set(`testing/${i < 150 ? '' : `${word(i % 5)}/`}test_${word(i)}_${i}.py`, test(i));
  out.set('testing/conftest.py', 'import pytest\n\npytest_plugins = ["pytester"]\n');
  for (let i = 0; i < 110; i++)
    out.set(`testing/example_scripts/${word(i % 7)}/${word(i)}_${i}/conftest.py`, `def pytest_configure(config):\n    config.${word(i)} = ${i}\n`);
  for (let i = 0; i < 170; i++)
    out.set(
      `doc/en/${i < 120 ? '' : `${['how-to', 'reference', 'explanation'][i % 3]}/`}${word(i)}-${i}.rst`,
      `${word(i)}\n${'='.repeat(10)}\n\n${prose(i, 600)}\n`,
    );
  for (let i = 0; i < 25; i++) out.set(`doc/en/example/${word(i)}_${i}.py`, test(300 + i));
  for (let i = 0; i < 56; i++)
    out.set(`changelog/${11000 + 37 * i}.${['bugfix', 'feature', 'improvement', 'doc', 'trivial'][i % 5]}.rst`, `${prose(i, 200)}\n`);
  for (let i = 0; i < 8; i++) out.set(`.github/workflows/${word(i)}.yml`, `name: ${word(i)}\non: [push]\njobs: {}\n`);
  for (let i = 0; i < 8; i++) out.set(`bench/${word(i)}_${i}.py`, test(500 + i));
  for (let i = 0; i < 6; i++) out.set(`scripts/${word(i)}-${i}.py`, module(600 + i));
  return out;
}

/** Writes the repository into `dir` and commits it on main; returns its file count. */
export async function largePythonRepository(dir: string): Promise<number> {
  const all = largePythonFiles();
  for (const [file, content] of all) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd: dir });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'framework');
  return all.size;
}
