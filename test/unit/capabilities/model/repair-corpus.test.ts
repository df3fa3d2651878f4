/**
 * The repair corpus: malformed replies real models send (test/fixtures/replies/*.yaml), each run through
 * the real gateway on the scripted provider. Every case ends as its fixture says — repaired locally,
 * valid after a re-ask that carried the validation error, or failed cleanly with a message — and no
 * case ever yields a value its schema rejects.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { Gateway, type OutputSpec } from '../../../../src/capabilities/model/gateway.ts';
import { PromptRenderer } from '../../../../src/capabilities/model/prompt-renderer.ts';
import type { ChatMessage, Completion, CompletionRequest, Provider } from '../../../../src/capabilities/model/provider.ts';
import { ScriptedProvider } from '../../../../src/capabilities/model/providers/scripted.ts';
import { UsageMeter } from '../../../../src/capabilities/model/usage.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { BugReport, CodeFile, Design, PRD, Review, TaskGraph } from '../../../../src/documents/index.ts';
import { loadRoleProfile, type RoleProfile } from '../../../../src/engine/roles/index.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROLES, ROOT } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

const CORPUS = path.join(ROOT, 'test/fixtures/replies');
const MAX_REPAIRS = 2;

const schemas = { PRD, Review, Design, TaskGraph, BugReport } as const;
type SchemaName = keyof typeof schemas;

const FixtureCase = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    /** A schema name (a JSON artifact), `code:<path>` (one source file) or `files` (several files). */
    output: z.string().regex(/^(PRD|Review|Design|TaskGraph|BugReport|files|code:\S+)$/),
    reply: z.string(),
    /** What the model answers to each re-ask, in order. */
    reasks: z.array(z.string()).default([]),
    end: z.enum(['local', 'reask', 'fail']),
    /** Must appear in the first re-ask (the validation error the model is told). */
    reaskSays: z.string().optional(),
    /** Must appear in the failure's message. */
    failSays: z.string().optional(),
    /** The artifact the case ends with (for code: the file's content). */
    value: z.unknown().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.end !== 'fail' && c.value === undefined) ctx.addIssue({ code: 'custom', message: 'a case that ends valid needs its value' });
    if (c.end !== 'local' && c.reaskSays === undefined) ctx.addIssue({ code: 'custom', message: 'a re-asked case needs reaskSays' });
    if (c.end === 'local' && c.reasks.length > 0) ctx.addIssue({ code: 'custom', message: 'a case repaired locally gets no re-ask' });
    if (c.end === 'fail' && c.failSays === undefined) ctx.addIssue({ code: 'custom', message: 'a failing case needs failSays' });
  });
type FixtureCase = z.infer<typeof FixtureCase>;

function loadCorpus(): { file: string; fixture: FixtureCase }[] {
  return fs
    .readdirSync(CORPUS)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) => {
      const parsed = z.array(FixtureCase).safeParse(parseYaml(fs.readFileSync(path.join(CORPUS, file), 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return parsed.data.map((fixture) => ({ file, fixture }));
    });
}

/** The call, the output spec, and the schema that judges the value, for a fixture's `output`. */
function target(output: string): { call: { role: string; action: string; key: string | null }; spec: OutputSpec; judge: z.ZodType } {
  if (output === 'files') {
    return { call: { role: 'qa', action: 'write_tests', key: null }, spec: { kind: 'files' }, judge: z.array(CodeFile).min(1) };
  }
  if (output.startsWith('code:')) {
    const file = output.slice('code:'.length);
    return { call: { role: 'engineer', action: 'write_file', key: file }, spec: { kind: 'code', path: file }, judge: CodeFile };
  }
  const name = output as SchemaName;
  const calls: Record<SchemaName, [string, string]> = {
    PRD: ['product-manager', 'write_prd'],
    Review: ['product-manager', 'review_prd'],
    Design: ['architect', 'write_design'],
    TaskGraph: ['architect', 'write_tasks'],
    BugReport: ['qa', 'write_bug_report'],
  };
  const [role, action] = calls[name];
  return { call: { role, action, key: null }, spec: { kind: 'json', name, schema: schemas[name] }, judge: schemas[name] };
}

/**
 * A roles folder for the corpus: the real shared templates (system prompt, output formats, the re-ask)
 * and role profiles, with one-line requests in place of the real step templates — the corpus is about
 * replies, and the real templates' variables change with the SOPs.
 */
async function corpusRoles(): Promise<string> {
  const dir = await tempDir();
  await fs.promises.cp(path.join(ROLES, '_shared'), path.join(dir, '_shared'), { recursive: true });
  const actions: Record<string, string[]> = {
    'product-manager': ['write_prd', 'review_prd'],
    architect: ['write_design', 'write_tasks'],
    engineer: ['write_file'],
    qa: ['write_bug_report', 'write_tests'],
  };
  for (const [role, names] of Object.entries(actions)) {
    await fs.promises.mkdir(path.join(dir, role));
    await fs.promises.copyFile(path.join(ROLES, role, 'role.yaml'), path.join(dir, role, 'role.yaml'));
    for (const action of names) await fs.promises.writeFile(path.join(dir, role, `${action}.hbs`), `${action.replace('_', ' ')} for: {{spec}}\n`);
  }
  return dir;
}

/** Records what the gateway sent, as it was at the time of sending. */
class RecordingProvider implements Provider {
  readonly sent: ChatMessage[][] = [];
  constructor(private readonly inner: Provider) {}
  get label() {
    return this.inner.label;
  }
  complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages.map((m) => ({ ...m })));
    return this.inner.complete(request);
  }
}

const corpus = loadCorpus();
const tally = { local: 0, reask: 0, fail: 0 };

describe('repair corpus: malformed replies through the gateway', () => {
  const profiles = new Map<string, RoleProfile>();
  let renderer: PromptRenderer;

  before(async () => {
    const roles = await corpusRoles();
    renderer = new PromptRenderer(roles, markdownRenderers);
    for (const role of ['product-manager', 'architect', 'engineer', 'qa']) profiles.set(role, await loadRoleProfile(roles, role));
  });

  after(async () => {
    await removeTempDirs();
    console.log(
      `      repair corpus: ${corpus.length} cases — ${tally.local} repaired locally, ${tally.reask} valid after a re-ask, ${tally.fail} failed cleanly`,
    );
  });

  it('holds at least 150 cases, with unique ids', () => {
    assert.ok(corpus.length >= 150, `the corpus has ${corpus.length} cases`);
    const ids = corpus.map((c) => c.fixture.id);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  for (const { file, fixture } of corpus) {
    it(`${file.replace(/\.yaml$/, '')}: ${fixture.id} → ${fixture.end}`, async () => {
      const { call, spec, judge } = target(fixture.output);
      const replies = [fixture.reply, ...fixture.reasks].map((reply) => ({
        role: call.role,
        action: call.action,
        ...(call.key ? { key: call.key } : {}),
        reply,
      }));
      const scripted = new ScriptedProvider(`scripted:${file}#${fixture.id}`, { replies });
      const provider = new RecordingProvider(scripted);
      const meter = new UsageMeter();
      const gateway = new Gateway({ provider, renderer, meter, exchanges: null, maxRepairs: MAX_REPAIRS });
      const ask = () =>
        gateway.ask({
          call,
          profile: profiles.get(call.role)!,
          variables: { spec: 'a CLI that counts word frequencies in text files' },
          output: spec,
          occurrence: 0,
        });

      let value: unknown;
      let failure: unknown = null;
      try {
        value = await ask();
      } catch (error) {
        failure = error;
      }

      if (fixture.end !== 'fail') assert.equal(failure, null, `ended valid, not with ${String(failure)}`);
      // The first re-ask (if any) carries the validation error.
      const reask = provider.sent[1]?.at(-1)?.content ?? '';
      if (fixture.reaskSays !== undefined) assert.match(reask, new RegExp(fixture.reaskSays, 'i'), 'the re-ask says what was wrong');
      assert.deepEqual(scripted.unused(), [], 'every scripted reply was asked for');

      if (fixture.end === 'fail') {
        assert.ok(SopworksError.isInstance(failure), `a clean failure, not a crash: ${String(failure)}`);
        assert.equal(failure.code, 'REPLY_INVALID');
        assert.match(failure.message, new RegExp(fixture.failSays!, 'i'));
        assert.match(failure.message, new RegExp(`role: ${call.role}, action: ${call.action}`));
        assert.equal(provider.sent.length, MAX_REPAIRS + 1);
        tally.fail++;
        return;
      }
      assert.deepEqual(value, spec.kind === 'code' ? { path: spec.path, content: fixture.value } : fixture.value);
      assert.ok(judge.safeParse(value).success, 'the value is valid by its schema');
      if (fixture.end === 'local') {
        assert.equal(provider.sent.length, 1, 'repaired without a re-ask');
        tally.local++;
      } else {
        assert.equal(provider.sent.length, 1 + fixture.reasks.length, 'valid after the re-asks');
        assert.ok(provider.sent.length > 1);
        tally.reask++;
      }
    });
  }
});
