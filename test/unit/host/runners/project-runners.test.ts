/**
 * Runners the repository installs are runners: `npx <bin>`, `npm exec`, `pnpm exec`, `yarn <bin>` and a
 * package.json script run the repository's own tools from node_modules/.bin — nothing fetched — when the
 * change policy lets QA run them; a form that fetches, a binary no dependency provides, and a tool that
 * makes its own environments are refused with the forms that are allowed, the repository's declared
 * commands first.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { commandRefusal, loadPolicy } from '../../../../src/capabilities/policy/index.ts';
import { localCommand } from '../../../../src/host/runners/local-command.ts';
import { type ProjectRunners, readProjectRunners } from '../../../../src/host/runners/project-runners.ts';
import { runnerForm } from '../../../../src/host/runners/runner-form.ts';
import { ROOT } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const INSTALLED: ProjectRunners = { scripts: ['lint', 'test', 'test:unit'], bins: ['tsc', 'vitest'], installed: true };
const words = (line: string) => line.split(' ');

describe("the repository's own runners", () => {
  after(removeTempDirs);

  it('reads a runner of binaries or of scripts from the words, and no form that fetches', () => {
    const cases: [string, unknown][] = [
      ['npx vitest run', { kind: 'bin', bin: 'vitest', args: ['run'] }],
      ['npx --no-install vitest run', { kind: 'bin', bin: 'vitest', args: ['run'] }],
      ['npx -p cowsay cowsay hi', null],
      ['npm exec -- vitest run', { kind: 'bin', bin: 'vitest', args: ['run'] }],
      ['npm run test:unit -- --bail', { kind: 'script', script: 'test:unit', args: ['--bail'] }],
      ['npm test', { kind: 'script', script: 'test', args: [] }],
      ['pnpm exec vitest run', { kind: 'bin', bin: 'vitest', args: ['run'] }],
      ['pnpm vitest run', { kind: 'bin', bin: 'vitest', args: ['run'] }],
      ['pnpm test:unit', { kind: 'script', script: 'test:unit', args: [] }],
      ['pnpm install', null],
      ['pnpm dlx vitest', null],
      ['yarn vitest', { kind: 'bin', bin: 'vitest', args: [] }],
      ['yarn run lint', { kind: 'script', script: 'lint', args: [] }],
      ['yarn dlx vitest', null],
      ['node --test', null],
    ];
    for (const [line, form] of cases) assert.deepEqual(runnerForm(words(line), INSTALLED.scripts), form, line);
    assert.equal(runnerForm(['yarn']), null, 'a bare yarn installs');
  });

  it('runs a binary from node_modules/.bin and a pnpm or yarn script with npm, and says how; refuses what is not installed', () => {
    assert.deepEqual(localCommand(words('npx vitest run'), INSTALLED), {
      argv: ['node_modules/.bin/vitest', 'run'],
      note: 'run as node_modules/.bin/vitest run',
    });
    assert.deepEqual(localCommand(words('pnpm exec vitest run'), INSTALLED), {
      argv: ['node_modules/.bin/vitest', 'run'],
      note: 'run as node_modules/.bin/vitest run',
    });
    assert.deepEqual(localCommand(words('yarn test:unit --bail'), INSTALLED), {
      argv: ['npm', 'run', 'test:unit', '--', '--bail'],
      note: 'run as npm run test:unit -- --bail',
    });
    assert.deepEqual(localCommand(words('npm test'), INSTALLED), { argv: ['npm', 'test'], note: null });
    assert.deepEqual(localCommand(words('python3 -m pytest'), INSTALLED), { argv: ['python3', '-m', 'pytest'], note: null });
    const missing = localCommand(words('npx jest'), INSTALLED);
    assert.match(
      'refused' in missing ? missing.refused : '',
      /^"jest" is not among the binaries .* \(node_modules\/\.bin: vitest, tsc\); sopworks fetches nothing at test time$/,
    );
    const before = localCommand(words('npx vitest run'), { ...INSTALLED, installed: false });
    assert.match('refused' in before ? before.refused : '', /node_modules\/\.bin does not exist: nothing was installed/);
  });

  it('reads the scripts and binaries: declared and locked before the install, node_modules/.bin after it', async () => {
    const root = await tempDir('sopworks-runners-');
    const manifest = {
      scripts: { test: 'vitest run' },
      devDependencies: { vitest: '^4.0.0', typescript: '^5.0.0', '@scope/tool': '1.0.0', '@types/node': '^20.0.0' },
    };
    await fs.writeFile(path.join(root, 'package.json'), JSON.stringify(manifest));
    await fs.writeFile(
      path.join(root, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/typescript': { bin: { tsc: 'bin/tsc', tsserver: 'bin/tsserver' } } } }),
    );
    assert.deepEqual(await readProjectRunners(root), { scripts: ['test'], bins: ['tool', 'tsc', 'tsserver', 'typescript', 'vitest'], installed: false });
    await fs.mkdir(path.join(root, 'node_modules', '.bin'), { recursive: true });
    await fs.writeFile(path.join(root, 'node_modules', '.bin', 'vitest'), '');
    assert.deepEqual(await readProjectRunners(root), { scripts: ['test'], bins: ['vitest'], installed: true });
    assert.deepEqual(await readProjectRunners(path.join(root, 'none')), { scripts: [], bins: [], installed: false });
  });

  it("lets QA of a change run them, and refuses what fetches, what is not the repository's, and tox, naming what is allowed", async () => {
    const policy = await loadPolicy(path.join(ROOT, 'sops', 'change'));
    const context = { runners: INSTALLED, declared: [{ argv: ['npx', 'vitest', 'run'], source: 'package.json scripts.test: pnpm vitest run' }] };
    for (const line of ['npx vitest run', 'pnpm exec vitest run', 'yarn vitest', 'npm run test:unit', 'pnpm test:unit', 'yarn run lint', 'npm test']) {
      assert.equal(commandRefusal(policy, 'qa', words(line), context), null, line);
    }
    assert.match(
      commandRefusal(policy, 'qa', words('npx jest'), context)!,
      /^"npx jest" runs "jest", which no dependency the repository installed provides: sopworks fetches nothing at test time\. Allowed by the policy: The repository's own: `npx vitest run` \(package\.json scripts\.test: pnpm vitest run\); its tools, nothing fetched: npx <bin> for a binary of its dependencies \(vitest, tsc\), npm run <script> for a package\.json script \(lint, test, test:unit\); commands starting with: node;/,
    );
    assert.match(commandRefusal(policy, 'qa', words('npm run coverage'), context)!, /runs the script "coverage", which package\.json does not have/);
    // A long list leads with its test runners and says it is cut: vitest, after twelve other tools, was left out unsaid.
    const tools = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n'].map((letter) => `${letter}-tool`);
    const many = { runners: { ...INSTALLED, bins: [...tools, 'vitest'] }, declared: [] };
    assert.match(
      commandRefusal(policy, 'qa', words('npx jest'), many)!,
      /npx <bin> for a binary of its dependencies \(vitest, a-tool, b-tool, c-tool, d-tool, e-tool, f-tool, g-tool, h-tool, i-tool, j-tool, k-tool and 3 more\),/,
    );
    assert.match(commandRefusal(policy, 'qa', words('npx -p cowsay cowsay'), context)!, /installs dependencies;/);
    const python = {
      declared: [
        { argv: ['python3', '-m', 'unittest', 'discover', '-p', '*_test.py'], source: 'tox.ini [testenv] commands: python -m unittest discover -p *_test.py' },
      ],
    };
    assert.match(
      commandRefusal(policy, 'qa', ['tox'], python)!,
      /^qa may not run "tox": tox makes its own environments and installs into them at test time\. Allowed by the policy: The repository's own: `python3 -m unittest discover -p \*_test\.py` \(tox\.ini/,
    );
    // The default policy (new projects) does not run a repository's tools.
    assert.match(
      commandRefusal({ ...policy, roles: { qa: { ...policy.roles.qa!, runInstalled: false } } }, 'qa', words('npx vitest run'), context)!,
      /installs dependencies/,
    );
  });
});
