/** `sop validate` checks the authorization policy beside company.yaml, like every other file a run reads. */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { validateCompany } from '../../../src/company/load-company.ts';
import { errorsIn, formatDiagnostic } from '../../../src/engine/sop/index.ts';
import { ROLES, SOPS } from '../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../helpers/temp-dir.ts';

describe('sop validate and the policy file', () => {
  after(removeTempDirs);

  it('reports a policy with a wrong type at its file:line:column', async () => {
    const dir = await tempDir();
    const sops = path.join(dir, 'sops');
    await fs.cp(SOPS, sops, { recursive: true });
    const policy = await fs.readFile(path.join(sops, 'policy.yaml'), 'utf8');
    await fs.writeFile(path.join(sops, 'policy.yaml'), policy.replace('    write: [docs/prd.md]', '    write: 42'));
    const { diagnostics } = await validateCompany(sops, ROLES);
    const errors = errorsIn(diagnostics).map(formatDiagnostic);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /policy\.yaml:\d+:\d+: error: .*write/);
  });

  it('accepts the shipped policy', async () => {
    const { diagnostics } = await validateCompany(SOPS, ROLES);
    assert.deepEqual(errorsIn(diagnostics), []);
  });
});
