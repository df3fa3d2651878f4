/**
 * `--chaos`: every fault class, on every kind of reply it applies to, through the real gateway, ends as
 * its class says — the same artifact taken as it is (the meaning kept), the same artifact after one
 * re-ask (the meaning lost), or the same artifact after the transport's retries (a server fault) — and
 * never anything else; faults are drawn from the seed alone, and recorded where they were injected.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ChaosProvider } from '../../../../../src/capabilities/model/chaos/chaos-provider.ts';
import { FAULT_CLASSES, type FaultClass } from '../../../../../src/capabilities/model/chaos/fault-classes.ts';
import { ExchangeReplay } from '../../../../../src/capabilities/model/exchange-log.ts';
import type { ExchangeRecord } from '../../../../../src/capabilities/model/exchange-record.ts';
import { Gateway, type OutputSpec } from '../../../../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../../../../src/capabilities/model/prompt-renderer.ts';
import { ScriptedProvider } from '../../../../../src/capabilities/model/providers/scripted.ts';
import { replyText, Scenario, type ScriptedReply } from '../../../../../src/capabilities/model/scenario.ts';
import { UsageMeter } from '../../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../../src/company/index.ts';
import { PRD, Review, TaskGraph } from '../../../../../src/documents/index.ts';
import { loadRoleProfile, type RoleProfile } from '../../../../../src/engine/roles/index.ts';
import { DEMO, ROLES, ROOT } from '../../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../../helpers/temp-dir.ts';

const RETRY = { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 5_000 };
const demo = Scenario.parse(parseYaml(fs.readFileSync(DEMO, 'utf8')));
const change = Scenario.parse(parseYaml(fs.readFileSync(path.join(ROOT, 'examples', 'wordfreq-change.yaml'), 'utf8')));
const find = (scenario: Scenario, action: string, key?: string): ScriptedReply =>
  scenario.replies.find((r) => r.action === action && (key === undefined || r.key === key))!;

/** A reply of each kind, as the shipped scenarios have them. */
const SAMPLES: { name: string; reply: ScriptedReply; output: OutputSpec }[] = [
  { name: 'a PRD', reply: find(demo, 'write_prd'), output: { kind: 'json', name: 'PRD', schema: PRD } },
  { name: 'a review', reply: find(demo, 'review_prd'), output: { kind: 'json', name: 'Review', schema: Review } },
  { name: 'a task graph', reply: find(demo, 'fix_tasks'), output: { kind: 'json', name: 'TaskGraph', schema: TaskGraph } },
  { name: 'one file', reply: find(demo, 'write_file', 'src/count.js'), output: { kind: 'code', path: 'src/count.js' } },
  {
    name: 'two files',
    reply: {
      role: 'qa',
      action: 'write_tests',
      reply:
        "test/count.test.js\n```js\nimport { countWords } from '../src/count.js';\nimport { test } from 'node:test';\n\ntest('counts', () => {\n  countWords(['a a']);\n});\n```\n\ntest/format.test.js\n```js\nimport { formatTable } from '../src/format.js';\nimport { test } from 'node:test';\n\ntest('formats', () => {\n  formatTable([]);\n});\n```\n",
    },
    output: { kind: 'files' },
  },
  { name: 'an edit', reply: find(change, 'edit_file', 'src/format.js'), output: { kind: 'edits', path: 'src/format.js' } },
];

/** One-line step templates in place of the real ones: the test is about replies, not prompts. */
async function chaosRoles(): Promise<string> {
  const dir = await tempDir();
  await fs.promises.cp(path.join(ROLES, '_shared'), path.join(dir, '_shared'), { recursive: true });
  const actions = new Map<string, Set<string>>();
  for (const { reply } of SAMPLES) actions.set(reply.role, (actions.get(reply.role) ?? new Set()).add(reply.action));
  for (const [role, names] of actions) {
    await fs.promises.mkdir(path.join(dir, role));
    await fs.promises.copyFile(path.join(ROLES, role, 'role.yaml'), path.join(dir, role, 'role.yaml'));
    for (const action of names) await fs.promises.writeFile(path.join(dir, role, `${action}.hbs`), `${action} for: {{spec}}\n`);
  }
  return dir;
}

interface Asked {
  value: unknown;
  records: ExchangeRecord[];
}

describe('chaos: spoiled replies through the gateway', function () {
  this.timeout(60_000);
  let renderer: PromptRenderer;
  const profiles = new Map<string, RoleProfile>();
  /** Each sample's artifact, as the gateway reads the scenario's own reply. */
  const clean = new Map<string, unknown>();

  before(async () => {
    const roles = await chaosRoles();
    renderer = new PromptRenderer(roles, markdownRenderers);
    for (const role of new Set(SAMPLES.map((s) => s.reply.role))) profiles.set(role, await loadRoleProfile(roles, role));
    for (const sample of SAMPLES) clean.set(sample.name, (await ask(sample, null)).value);
  });
  after(removeTempDirs);

  /** Asks the sample's call once through a chaos provider that spoils every first ask with `classes`. */
  async function ask(sample: (typeof SAMPLES)[number], classes: readonly FaultClass[] | null, seed = 1): Promise<Asked> {
    const scripted = new ScriptedProvider('scripted:test', { replies: [sample.reply] });
    const provider = classes === null ? scripted : new ChaosProvider(scripted, 'test.yaml', { rate: 1, seed }, RETRY, undefined, classes);
    const records: ExchangeRecord[] = [];
    const gateway = new Gateway({ provider, renderer, meter: new UsageMeter(), exchanges: { append: async (r) => void records.push(r) }, maxRepairs: 2 });
    const call = { role: sample.reply.role, action: sample.reply.action, key: sample.reply.key ?? null };
    const value = await gateway.ask({ call, profile: profiles.get(call.role)!, variables: { spec: 'wordfreq' }, output: sample.output, occurrence: 0 });
    return { value, records };
  }

  for (const fault of FAULT_CLASSES) {
    it(`${fault.id} (${fault.expect}) ends with the same artifact on every reply it applies to`, async () => {
      let applied = 0;
      for (const sample of SAMPLES) {
        // Several seeds: a class draws its wording, its label style, where it cuts.
        for (const seed of [1, 2, 3, 4, 5]) {
          const { value, records } = await ask(sample, [fault], seed);
          const first = records[0]!;
          if (!first.injected) continue;
          applied++;
          const where = `${sample.name}, seed ${seed}`;
          assert.equal(first.injected.fault, fault.id, where);
          assert.deepEqual(value, clean.get(sample.name), `${where}: the same artifact as the clean reply`);
          if (fault.expect === 'accepted') {
            assert.equal(first.ok, true, `${where}: taken as it is, not re-asked (${first.error})\n${first.reply}`);
            assert.equal(records.length, 1, where);
          } else if (fault.expect === 'reasked') {
            assert.equal(first.ok, false, `${where}: re-asked, never taken\n${first.reply}`);
            assert.equal(records.length, 2, where);
            assert.equal(records[1]!.reusedReply, true, `${where}: the re-ask got the scenario's reply`);
            assert.equal(records[1]!.injected, undefined, where);
          } else {
            assert.equal(first.ok, true, where);
            assert.ok(first.retries >= 1 && first.retries <= 2, `${where}: ${first.retries} retries`);
            assert.equal(first.reply, replyText(sample.reply), where);
          }
        }
      }
      assert.ok(applied > 0, `${fault.id} applied to none of the samples`);
    });
  }

  it('draws the same faults from the same seed, and others from another', async () => {
    const draw = async (seed: number) => {
      const faults: string[] = [];
      for (const sample of SAMPLES) faults.push((await ask(sample, FAULT_CLASSES, seed)).records.map((r) => `${r.injected?.fault}:${r.reply}`).join('|'));
      return faults;
    };
    assert.deepEqual(await draw(7), await draw(7));
    assert.notDeepEqual(await draw(7), await draw(8));
  });

  it('spoils about the share of first asks it is given, and none at 0', async () => {
    const scripted = (n: number) => new ScriptedProvider('scripted:test', { replies: Array.from({ length: n }, () => find(demo, 'review_prd')) });
    const count = async (rate: number) => {
      const provider = new ChaosProvider(scripted(400), 'test.yaml', { rate, seed: 3 }, RETRY);
      let spoiled = 0;
      for (let occurrence = 0; occurrence < 400; occurrence++) {
        const completion = await provider.complete({
          call: { role: 'product-manager', action: 'review_prd', key: null },
          messages: [],
          jsonSchema: null,
          output: { kind: 'json', schema: Review },
          occurrence,
          attempt: 1,
        });
        if (completion.injected) spoiled++;
      }
      return spoiled;
    };
    assert.equal(await count(0), 0);
    const share = (await count(0.3)) / 400;
    assert.ok(share > 0.22 && share < 0.38, `${share} of 400 first asks spoiled at 0.3`);
  });

  it('owes a call stopped between its spoiled reply and the re-ask its real reply, in a new process', async () => {
    const sample = SAMPLES.find((s) => s.name === 'a PRD')!;
    const cutOff = FAULT_CLASSES.filter((f) => f.id === 'cut-off');
    const first = await ask(sample, cutOff);
    // The new process saw only the spoiled attempt: the gateway replays it and asks the re-ask live.
    const earlier = first.records.slice(0, 1);
    const scripted = new ScriptedProvider('scripted:test', { replies: [sample.reply] });
    const provider = new ChaosProvider(scripted, 'test.yaml', { rate: 1, seed: 1 }, RETRY, undefined, cutOff);
    const replay = ExchangeReplay.parse(earlier);
    provider.skipUsed(replay.callsPerCall());
    provider.resumeFrom(replay.records);
    const records: ExchangeRecord[] = [];
    const gateway = new Gateway({
      provider,
      renderer,
      meter: new UsageMeter(),
      exchanges: { append: async (r) => void records.push(r) },
      maxRepairs: 2,
      replay,
    });
    const call = { role: 'product-manager', action: 'write_prd', key: null };
    const value = await gateway.ask({ call, profile: profiles.get('product-manager')!, variables: { spec: 'wordfreq' }, output: sample.output, occurrence: 0 });
    assert.deepEqual(value, clean.get('a PRD'));
    assert.deepEqual(
      records.map((r) => [r.attempt, r.reusedReply ?? false]),
      [[2, true]],
    );
    assert.deepEqual(scripted.unused(), []);
  });

  it('re-asks a reply cut off at the output limit however well it parses (a last file may be missing)', async () => {
    const two = SAMPLES.find((s) => s.name === 'two files')!;
    const firstFile = replyText(two.reply).split('\n\ntest/format.test.js')[0]!;
    const scripted = new ScriptedProvider('scripted:test', { replies: [two.reply] });
    const cutAfterOneFile = {
      label: 'scripted:test',
      complete: async () => ({ text: firstFile, usage: null, finishReason: 'length' }),
    };
    let calls = 0;
    const provider = {
      label: 'scripted:test',
      complete: async (r: Parameters<typeof scripted.complete>[0]) => (calls++ === 0 ? cutAfterOneFile.complete() : scripted.complete(r)),
    };
    const records: ExchangeRecord[] = [];
    const gateway = new Gateway({ provider, renderer, meter: new UsageMeter(), exchanges: { append: async (r) => void records.push(r) }, maxRepairs: 2 });
    const value = await gateway.ask({
      call: { role: 'qa', action: 'write_tests', key: null },
      profile: profiles.get('qa')!,
      variables: { spec: 'wordfreq' },
      output: two.output,
      occurrence: 0,
    });
    assert.equal((value as unknown[]).length, 2);
    assert.equal(records[0]!.ok, false);
    assert.match(records[0]!.error!, /cut off at the output limit \(finish_reason: length\)/);
  });
});
