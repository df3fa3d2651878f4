/** sops/policy.yaml: loaded next to company.yaml, validated with file:line:column, defaulted when absent. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadPolicy, policyProblems } from '../../../../src/capabilities/policy/load-policy.ts';
import { DEFAULT_POLICY } from '../../../../src/capabilities/policy/policy-file.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { SOPS } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

async function sopsWith(policy: string | null): Promise<string> {
  const dir = await tempDir();
  if (policy !== null) await fs.writeFile(path.join(dir, 'policy.yaml'), policy);
  return dir;
}

describe('policy file', () => {
  after(removeTempDirs);

  it('ships sops/policy.yaml with exactly the documented default policy', async () => {
    const shipped = await loadPolicy(SOPS);
    assert.equal(shipped.source, path.join(SOPS, 'policy.yaml'));
    const { source: _shipped, ...rules } = shipped;
    const { source: _default, ...defaults } = DEFAULT_POLICY;
    assert.deepEqual(rules, defaults);
  });

  it('gives a --sops folder without policy.yaml the default policy, and says so in its messages', async () => {
    const policy = await loadPolicy(await sopsWith(null));
    assert.equal(policy, DEFAULT_POLICY);
    assert.match(policy.source, /^the default policy/);
  });

  it('fills in what a short policy leaves out: nothing writable, nothing runnable, the default dependency install', async () => {
    const policy = await loadPolicy(await sopsWith('roles:\n  qa:\n    run: [node]\n'));
    assert.deepEqual(policy.roles.qa, { write: [], except: [], run: ['node'] });
    assert.deepEqual(policy.protected, []);
    assert.deepEqual(policy.dependencies, { install: true, by: ['qa'], network: true, scripts: false, registries: { npm: null, pip: null } });
  });

  it('names file:line:column of every problem', async () => {
    const dir = await sopsWith(
      [
        'roles:',
        '  engineer:',
        '    write: [src/, /etc/passwd]',
        '    run: ["npm test && curl x"]',
        '  qa:',
        '    writes: [test/]',
        'dependencies:',
        '  install: false',
        '  network: true',
        '',
      ].join('\n'),
    );
    const file = path.join(dir, 'policy.yaml');
    const problems = await policyProblems(dir);
    assert.deepEqual(problems, [
      `${file}:3:19: roles.engineer.write.1: a path pattern is relative to the project root and stays inside it (no leading "/", no "..")`,
      `${file}:4:11: roles.engineer.run.0: write a command as plain words, without quotes or shell syntax`,
      `${file}:6:13: roles.qa: Unrecognized key: "writes"`,
      `${file}:9:12: dependencies.network: network only applies to a dependency install: set install: true, or remove network`,
    ]);
    await assert.rejects(
      loadPolicy(dir),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'SOP_INVALID' && error.message === problems.join('\n'),
    );
  });

  it('reports a YAML syntax error with its place', async () => {
    const dir = await sopsWith('roles:\n  qa: [unclosed\n');
    const [problem] = await policyProblems(dir);
    assert.match(problem!, new RegExp(`^${path.join(dir, 'policy.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: YAML syntax error`));
  });
});
