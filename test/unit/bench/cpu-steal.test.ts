/** The benchmark's reading of the hypervisor's steal time from /proc/stat. */
import assert from 'node:assert/strict';
import { parseProcStat, watchSteal } from '../../../bench/cpu-steal.ts';

describe('cpu steal (bench)', () => {
  it('reads steal and the total of the first eight fields of the aggregate cpu line', () => {
    const text = 'cpu  1676684 5514 265334 3293506 14103 0 10468 299335 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n';
    assert.deepEqual(parseProcStat(text), { steal: 299335, total: 1676684 + 5514 + 265334 + 3293506 + 14103 + 0 + 10468 + 299335 });
  });

  it('gives null for text without a usable cpu line, as on a kernel too old to count steal', () => {
    assert.equal(parseProcStat('intr 1\n'), null);
    assert.equal(parseProcStat('cpu  1 2 3 4\n'), null);
    assert.equal(parseProcStat('cpu  1 2 3 4 5 6 x 8\n'), null);
  });

  it('gives a percentage between 0 and 100 here, or null where /proc/stat is missing', () => {
    const stolen = watchSteal();
    let spin = 0;
    for (let i = 0; i < 2e6; i++) spin += i;
    const share = stolen();
    assert.ok(spin > 0);
    if (share !== null) assert.ok(share >= 0 && share <= 100, String(share));
  });
});
