/**
 * One conformance suite for every RunStore (src/engine/run/run-store.ts): the files of `.sopworks/` and
 * memory keep the same promises — what is appended, saved or written is what a reopened store gives back,
 * the lock keeps a second holder out, a role's errored state never replaces its last restorable snapshot.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileRunStore } from '../../../../src/engine/run/file-run-store.ts';
import { MemoryRunStore } from '../../../../src/engine/run/memory-run-store.ts';
import type { RunStore } from '../../../../src/engine/run/run-store.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

/** A store, and the same store as another process would open it later. */
interface Kind {
  name: string;
  make(): Promise<{ store: RunStore; reopen(): RunStore }>;
}

const kinds: Kind[] = [
  {
    name: 'FileRunStore',
    make: async () => {
      const project = await tempDir('sopworks-store-');
      await fs.mkdir(path.join(project, '.sopworks'));
      return { store: FileRunStore.of(project), reopen: () => FileRunStore.of(project) };
    },
  },
  {
    name: 'MemoryRunStore',
    make: async () => {
      const store = new MemoryRunStore();
      return { store, reopen: () => store };
    },
  },
];

const active = (state: string, snapshot: unknown, delivered: number[]) => ({ state, status: 'active', restorable: { snapshot, delivered } }) as const;

for (const kind of kinds) {
  describe(`RunStore conformance: ${kind.name}`, () => {
    after(removeTempDirs);

    it('gives back the board and the exchange log, record for record, after a reopen', async () => {
      const { store, reopen } = await kind.make();
      const board = await store.openBoard();
      const exchanges = await store.openExchanges();
      assert.deepEqual([board.records, exchanges.records], [[], []]);
      await board.log.append({ id: 'msg-000001', seq: 1, payload: { text: 'ünïcode\nand a newline' } });
      await board.log.append({ id: 'msg-000002', seq: 2, payload: null });
      await exchanges.log.append({ call: 1 });
      await Promise.all([board.log.close(), exchanges.log.close()]);
      const again = reopen();
      assert.deepEqual((await again.openBoard()).records, [
        { id: 'msg-000001', seq: 1, payload: { text: 'ünïcode\nand a newline' } },
        { id: 'msg-000002', seq: 2, payload: null },
      ]);
      assert.deepEqual((await again.openExchanges()).records, [{ call: 1 }]);
    });

    it('keeps what was appended apart from what the appender still holds: a record changed after its append is stored as it was', async () => {
      const { store, reopen } = await kind.make();
      const board = await store.openBoard();
      const record = { seq: 1, payload: { n: 1 } };
      await board.log.append(record);
      record.payload.n = 2;
      await board.log.close();
      assert.deepEqual((await reopen().openBoard()).records, [{ seq: 1, payload: { n: 1 } }]);
    });

    it('writes the run record whole and reads it back; none before the first write', async () => {
      const { store, reopen } = await kind.make();
      assert.equal(await store.readRecord(), null);
      await store.writeRecord({ spec: 'a counter', outcome: undefined, usage: { calls: 3 } });
      await store.writeRecord({ spec: 'a counter', outcome: 'done', usage: { calls: 4 } });
      assert.deepEqual(await reopen().readRecord(), { spec: 'a counter', outcome: 'done', usage: { calls: 4 } });
    });

    it('restores the newest restorable state of each role, never an errored one, and the messages it took', async () => {
      const { store, reopen } = await kind.make();
      await store.roles.save('qa', active('idle', { value: 'idle' }, []));
      await store.roles.save('qa', active('testing', { value: 'testing' }, [1, 4]));
      await store.roles.save('qa', { state: 'testing', status: 'error', restorable: null });
      await store.roles.save('engineer', active('writing', { value: 'writing' }, [2]));
      await store.roles.settled();
      const again = reopen();
      const qa = await again.roles.load('qa');
      assert.deepEqual(
        { state: qa?.state, status: qa?.status, snapshot: qa?.snapshot, delivered: qa?.delivered },
        { state: 'testing', status: 'error', snapshot: { value: 'testing' }, delivered: [1, 4] },
      );
      assert.equal((await again.roles.load('engineer'))?.state, 'writing');
      assert.equal(await again.roles.load('architect'), null);
    });

    it('keeps a restored role restorable when it fails right after the restore', async () => {
      const { store, reopen } = await kind.make();
      await store.roles.save('pm', active('drafting', { value: 'drafting' }, [1]));
      await store.roles.settled();
      const again = reopen();
      await again.roles.load('pm');
      await again.roles.save('pm', { state: 'drafting', status: 'error', restorable: null });
      await again.roles.settled();
      assert.deepEqual((await reopen().roles.load('pm'))?.snapshot, { value: 'drafting' });
    });

    it('lets one holder have the lock at a time, and the next one once it is released', async () => {
      const { store, reopen } = await kind.make();
      const lock = await store.lock();
      await assert.rejects(reopen().lock(), (error: unknown) => SopworksError.isInstance(error) && error.code === 'PROJECT_BUSY');
      await lock.release();
      const next = await reopen().lock();
      assert.equal(next.tookOver, null);
      await next.release();
    });

    it('keeps the approval requests a stopped run waits on, and forgets them when told there are none', async () => {
      const { store, reopen } = await kind.make();
      assert.deepEqual(await store.readWaiting(), []);
      await store.writeWaiting([{ role: 'product-manager', gate: 'prd', key: null, round: 0, content: '# PRD' }]);
      assert.deepEqual(await reopen().readWaiting(), [{ role: 'product-manager', gate: 'prd', key: null, round: 0, content: '# PRD' }]);
      await store.writeWaiting([]);
      assert.deepEqual(await reopen().readWaiting(), []);
    });
  });
}

describe('FileRunStore: what only files meet', () => {
  after(removeTempDirs);

  it('drops a torn last line of the board (a crash mid-write) and says so', async () => {
    const project = await tempDir('sopworks-store-');
    await fs.mkdir(path.join(project, '.sopworks'));
    const store = FileRunStore.of(project);
    await fs.writeFile(store.file('board.jsonl'), '{"seq":1}\n{"seq":2,"pay');
    const opened = await store.openBoard();
    assert.deepEqual(opened.records, [{ seq: 1 }]);
    assert.equal(opened.droppedTail, '{"seq":2,"pay');
    await opened.log.close();
  });

  it('refuses a run.json that is not JSON, naming it, instead of starting over', async () => {
    const project = await tempDir('sopworks-store-');
    await fs.mkdir(path.join(project, '.sopworks'));
    const store = FileRunStore.of(project);
    await fs.writeFile(store.file('run.json'), '{"spec": "a coun');
    await assert.rejects(
      store.readRecord(),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'USAGE' && error.message.includes(store.file('run.json')),
    );
  });
});
