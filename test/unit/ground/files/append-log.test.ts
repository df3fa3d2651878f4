import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppendLog, readAppendLog, repairAppendLog } from '../../../../src/ground/files/append-log.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

describe('append log', () => {
  after(removeTempDirs);

  let file: string;
  beforeEach(async () => {
    file = path.join(await tempDir('sopworks-log-'), 'log.jsonl');
  });

  it('reads a missing file as an empty log', async () => {
    assert.deepEqual(await readAppendLog(file), { records: [], droppedTail: null });
  });

  it('writes one JSON line per record, in call order, and reads them back', async () => {
    const log = await AppendLog.open(file, { flush: 'each' });
    const writes = [1, 2, 3, 4, 5].map((n) => log.append({ n }));
    await Promise.all(writes);
    await log.close();
    assert.equal(await fs.readFile(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n{"n":5}\n');
    assert.deepEqual(await readAppendLog(file), { records: [1, 2, 3, 4, 5].map((n) => ({ n })), droppedTail: null });
  });

  it('has the record on disk by the time append resolves', async () => {
    const log = await AppendLog.open(file, { flush: 'each' });
    await log.append({ first: true });
    assert.equal(await fs.readFile(file, 'utf8'), '{"first":true}\n');
    await log.close();
  });

  it('flushes to the disk per line or once at close, as opened, and has every line written when append resolves', async () => {
    // Count fdatasync calls on file handles (the prototype is shared by every handle of the process).
    const probe = await fs.open(file, 'a');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const original = proto.datasync;
    let flushes = 0;
    proto.datasync = function (this: unknown) {
      flushes++;
      return original.call(this);
    };
    try {
      const each = await AppendLog.open(file, { flush: 'each' });
      await each.append({ n: 1 });
      await each.append({ n: 2 });
      assert.equal(flushes, 2);
      await each.close();
      assert.equal(flushes, 2);

      flushes = 0;
      const atClose = await AppendLog.open(file, { flush: 'close' });
      await atClose.append({ n: 3 });
      await atClose.append({ n: 4 });
      assert.equal(flushes, 0);
      // Written, though not yet flushed: another process (or a resume after a kill) reads it.
      assert.deepEqual((await readAppendLog(file)).records, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
      await atClose.close();
      assert.equal(flushes, 1);
    } finally {
      proto.datasync = original;
    }
  });

  it('appends to what is already there when reopened', async () => {
    const first = await AppendLog.open(file, { flush: 'each' });
    await first.append({ a: 1 });
    await first.close();
    const second = await AppendLog.open(file, { flush: 'each' });
    await second.append({ b: 2 });
    await second.close();
    assert.deepEqual((await readAppendLog(file)).records, [{ a: 1 }, { b: 2 }]);
  });

  it('reads past a torn last line without touching the file (a writer may be in the middle of it)', async () => {
    await fs.writeFile(file, '{"a":1}\n{"b":2}\n{"c":');
    const loaded = await readAppendLog(file);
    assert.deepEqual(loaded.records, [{ a: 1 }, { b: 2 }]);
    assert.equal(loaded.droppedTail, '{"c":');
    assert.equal(await fs.readFile(file, 'utf8'), '{"a":1}\n{"b":2}\n{"c":');
  });

  it('repair drops a torn last line, reports it and cuts it from the file', async () => {
    await fs.writeFile(file, '{"a":1}\n{"b":2}\n{"c":');
    const loaded = await repairAppendLog(file);
    assert.deepEqual(loaded.records, [{ a: 1 }, { b: 2 }]);
    assert.equal(loaded.droppedTail, '{"c":');
    assert.equal(await fs.readFile(file, 'utf8'), '{"a":1}\n{"b":2}\n');
  });

  it('drops a torn line that was the only one, leaving an empty file', async () => {
    await fs.writeFile(file, '{"only":');
    const loaded = await repairAppendLog(file);
    assert.deepEqual(loaded, { records: [], droppedTail: '{"only":' });
    assert.equal(await fs.readFile(file, 'utf8'), '');
  });

  it('drops a last line that is not JSON even when it ends with a newline', async () => {
    await fs.writeFile(file, '{"a":1}\n{"b":\n');
    const loaded = await repairAppendLog(file);
    assert.deepEqual(loaded.records, [{ a: 1 }]);
    assert.equal(loaded.droppedTail, '{"b":');
    assert.equal(await fs.readFile(file, 'utf8'), '{"a":1}\n');
  });

  it('refuses a log damaged before its last line, naming file:line, and leaves the file alone', async () => {
    const damaged = '{"a":1}\nGARBAGE\n{"c":3}\n';
    await fs.writeFile(file, damaged);
    await assert.rejects(repairAppendLog(file), (error: Error) => {
      assert.ok(error.message.includes(`${file}:2:`), error.message);
      assert.match(error.message, /damaged/);
      return true;
    });
    assert.equal(await fs.readFile(file, 'utf8'), damaged);
  });
});
