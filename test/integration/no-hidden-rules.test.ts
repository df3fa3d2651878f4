/**
 * No hidden rules (issue 36, Must 1). For every step of the shipped SOPs that asks a model (`ask`, `edit`,
 * `clarify`, in the new-project company and the change company), the checks that can refuse its reply
 * are found from the SOP and the vocabulary themselves — the reply's schema (every constraint, every
 * refinement), the files its role may write, each step that judges what it gave (every state reachable
 * from its onDone before the next model call), its reply's own limit — and the prompt the gateway really
 * sends, rendered from real boards (the demo's and a change run's), is asserted to state each one in the
 * words the check uses. No prompt carries a path of this machine.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import {
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  countPromptTokens,
  Gateway,
  LOOP_RULE,
  PromptRenderer,
  type Provider,
  planContext,
  plannedSteps,
  type ReplyShape,
  type SchemaCaps,
  serverJsonSchema,
  UsageMeter,
} from '../../src/capabilities/model/index.ts';
import { loadPolicy, policyPort } from '../../src/capabilities/policy/index.ts';
import { askOutputs, type Company, loadCompany, markdownRenderers, sopPrompts, vocabulary } from '../../src/company/index.ts';
import { type Message, MessageBoard } from '../../src/engine/board/index.ts';
import { judgesOf, rulesOfJudges } from '../../src/engine/sop/index.ts';
import { initialContext, type Ports, type RoleContext, resolveView, type SopFile, type StateNodeConfig } from '../../src/engine/steps/index.ts';
import { readAppendLog } from '../../src/ground/files/index.ts';
import { DEFAULT_SANDBOX_SETTINGS } from '../../src/host/sandbox/index.ts';
import { changeSetUp } from '../helpers/change-repo.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario, runScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** The steps that ask a model: their replies are what the checks judge. */
const ASKS = new Set(['ask', 'edit', 'clarify']);
/** Steps that can send what the step before gave back to its writer: each states its rules. */
const JUDGES = new Set(['check', 'checkChangeTasks', 'checkTestCommand', 'fastCheck', 'manualClaims']);
/** Every other step a reply can reach before the next model call, and why it refuses nothing of it. */
const NOT_JUDGES: Record<string, string> = {
  publish: 'posts what was accepted (a path the role may not write is refused before the model is asked: the policy rule)',
  awaitApproval: "a person's decision, not a rule",
  stopAt: 'a stop the user asked for',
  conclude: 'ends the run',
  eachFile: "runs the files' own SOPs",
  awaitFile: 'waits for a file',
  installDependencies: "a failed install is the code's bug, reported to the Engineer",
  runTests: "failing tests are the code's bugs, reported to the Engineer, not a refusal of the tests",
  runProgram: "a failed run is the code's bug",
  runBaseTests: 'runs the repository as it was',
  compareWithBase: 'compares test rounds',
  rerunNewFailures: 'runs the tests again to tell flaky tests from broken ones: it refuses no reply',
  coverage: 'builds the coverage matrix of a test round: it refuses nothing',
  read: 'reads the files asked for; what it cannot read is shown to the next step, never sent back',
  mapRepository: 'maps the repository',
  pendingManualChecks: 'collects the manual checks awaiting a verdict from the matrix: it refuses nothing',
  manualBug: 'turns the rejected manual checks of the matrix into a bug report: it refuses nothing',
};

const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const targetsOf = (transitions: unknown): string[] =>
  asList(transitions)
    .map((t) => (typeof t === 'string' ? t : (t as { target?: unknown } | null)?.target))
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.replace(/^\./, ''));
type Invoke = { src: string; input?: unknown; onDone?: unknown; onError?: unknown };
const invokesOf = (state: StateNodeConfig | undefined): Invoke[] => asList(state?.invoke) as Invoke[];

/** Every judging step reachable from `onDone` before the next model call: found by walking the SOP, not as the runtime finds it. */
function reachableJudges(sop: SopFile, onDone: unknown): { src: string; params: unknown }[] {
  const found: { src: string; params: unknown }[] = [];
  const seen = new Set<string>();
  const queue = targetsOf(onDone);
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const state = sop.states[id];
    for (const invoke of invokesOf(state)) {
      if (ASKS.has(invoke.src)) continue;
      if (JUDGES.has(invoke.src)) found.push({ src: invoke.src, params: invoke.input ?? {} });
      else assert.ok(invoke.src in NOT_JUDGES, `${sop.id}/${id}: step ${invoke.src} — does it refuse a reply? classify it in this test`);
      if (!ASKS.has(invoke.src)) queue.push(...targetsOf(invoke.onDone), ...targetsOf(invoke.onError));
    }
    if (!invokesOf(state).some((i) => ASKS.has(i.src))) queue.push(...targetsOf(state?.always));
  }
  return found;
}

/** Every zod node of a schema that a refinement or transform checks beyond what JSON Schema says. */
function refinedNodes(schema: z.ZodType, seen = new Set<unknown>()): z.ZodType[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string; checks?: { _zod: { def: { check: string } } }[] } } })._zod.def;
  const refined =
    (def.checks ?? []).some((c) => c._zod.def.check === 'custom') ||
    (def.type === 'pipe' && (def.out as { _zod: { def: { type: string } } })._zod.def.type === 'transform');
  const children = [
    ...Object.values((def.shape as Record<string, z.ZodType>) ?? {}),
    def.element,
    def.innerType,
    def.in,
    ...((def.options as z.ZodType[]) ?? []),
  ].filter((c): c is z.ZodType => typeof c === 'object' && c !== null && '_zod' in c);
  return [...(refined ? [schema] : []), ...children.flatMap((child) => refinedNodes(child, seen))];
}

/** A model with a 128k context that keeps every prompt it is sent, and answers nothing usable. */
class Capture implements Provider {
  readonly label = 'capture';
  readonly contextWindow = 128_000;
  readonly replyAllowance = 4096;
  /** One request's max_tokens: a reply of files cut off there is continued, up to three requests' worth. */
  readonly outputLimit = 4096;
  readonly sent: ChatMessage[][] = [];
  constructor(readonly schemaCaps: SchemaCaps) {}
  replyAllowanceFor(output: ReplyShape): number {
    return output.kind === 'files' ? 3 * 4096 : 4096;
  }
  async complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages);
    return { text: '', usage: null, finishReason: 'stop' };
  }
}

interface Family {
  name: string;
  sops: string;
  company: Company;
  root: string;
  board: MessageBoard;
  /** The file a per-file step works on. */
  current: string;
}

async function boardOf(dir: string): Promise<MessageBoard> {
  const board = MessageBoard.inMemory({ types: vocabulary.messages });
  for (const record of (await readAppendLog(path.join(dir, '.sopworks', 'board.jsonl'))).records as Message[]) await board.post(record);
  return board;
}

/** What a role keeps in its slots by the time each step runs (a draft, a review, the questions' answers, the tests). */
function slotsFor(board: MessageBoard, current: string): Record<string, unknown> {
  const latest = (type: string) => board.latest(type)?.payload;
  const code = (board.all<{ path: string; content: string }>('Code').find((m) => m.payload.path === current)?.payload ?? {
    path: current,
    content: 'export {};\n',
  }) as {
    path: string;
    content: string;
  };
  // What a board may not hold (a change that passed at once has no bug report): as a failed round leaves them.
  const bug = { summary: 'An empty file crashes the program.', failingTests: ['empty file'], files: [{ path: current, problem: 'reads past the end' }] };
  const report = {
    round: 1,
    command: ['node', '--test'],
    passed: false,
    exitCode: 1,
    timedOut: false,
    counts: null,
    failures: [],
    signature: 'x',
    output: 'not ok 1',
    sandbox: null,
  };
  const kept = {
    draft: { path: current, content: code.content, before: code.content, diff: `--- a/${current}\n+++ b/${current}\n` },
    review: { approved: false, issues: ['Say what the program prints for an empty file.'] },
    testFiles: [{ path: 'test/a.test.js', content: "import test from 'node:test';\n" }],
    existingTests: { files: [{ path: 'test/b.test.js', why: 'imports src/b.js', helpers: [], content: "import test from 'node:test';\n" }] },
    answers: null,
    sources: { files: [code], refused: [] },
    bug: latest('BugReport') ?? bug,
    // A change's triage of a failed round that blames a test of QA's own (the fix_change_tests step reads it).
    triage: { ...bug, files: [], ownTests: [{ path: 'test/a.test.js', problem: 'expects a trailing newline the criterion never asked for' }] },
    testReport: latest('TestReport') ?? report,
    prd: latest('PRD'),
    design: latest('Design'),
    tasks: latest('TaskGraph'),
    changeRequest: latest('ChangeRequest'),
    designDelta: latest('DesignDelta'),
    changeTasks: latest('ChangeTaskGraph'),
  };
  return Object.fromEntries(Object.entries(kept).filter(([, value]) => value !== undefined));
}

function portsFor(family: Family, role: Company['roles'][number], gateway: Gateway, policy: Ports['policy']): Ports {
  const none = async () => assert.fail('not used by a model-asking step');
  return {
    role: { profile: role.profile, seats: [role.profile] },
    board: family.board as unknown as Ports['board'],
    publish: none,
    model: gateway,
    repository: {
      root: family.root,
      readFile: (file) => fs.readFile(path.join(family.root, file), 'utf8').catch(() => null),
      withCommitsHeld: (work) => work(),
      filesOnDisk: async () => {},
    },
    policy,
    sandbox: DEFAULT_SANDBOX_SETTINGS,
    approvals: { gated: () => false, decide: none, clarifying: () => true, answer: async () => [] },
    run: { windDown: new AbortController().signal, concurrency: 1, trackWork: (work) => work(), report: () => {}, stopAt: async () => {} },
    machines: { subSops: {}, build: none as never },
    documents: { markdown: (v) => JSON.stringify(v), line: (v) => String(v) },
  } as Ports;
}

describe('no hidden rules: every check that can refuse a reply is stated in the prompt that asks for it', function () {
  this.timeout(240_000);
  const families: Family[] = [];
  let caps: SchemaCaps;

  before(async () => {
    const demo = await runScenario(await demoScenario());
    assert.equal(demo.result.outcome, 'done', demo.result.reason);
    const change = await changeSetUp();
    const changed = await change.change();
    assert.equal(changed.code, 0, changed.stdout + changed.stderr);
    const changeBoard = await boardOf(change.worktree);
    const demoBoard = await boardOf(demo.project);
    // The shipped SOPs QA may be switched to (sops/qa-early.yaml says how): its per-file test step too.
    const early = path.join(await tempDir(), 'sops');
    await fs.cp(SOPS, early, { recursive: true });
    const companyFile = path.join(early, 'company.yaml');
    const hired = (await fs.readFile(companyFile, 'utf8')).replace(
      / {2}- id: qa\n {4}watches: \[CodeComplete, ManualVerdicts\]/,
      '  - id: qa\n    sop: qa-early.yaml\n    watches: [TaskGraph, CodeComplete, ManualVerdicts]',
    );
    await fs.writeFile(companyFile, hired);
    families.push(
      { name: 'new project', sops: SOPS, company: await loadCompany(SOPS, ROLES), root: demo.project, board: demoBoard, current: 'src/cli.js' },
      { name: 'new project, QA early', sops: early, company: await loadCompany(early, ROLES), root: demo.project, board: demoBoard, current: 'src/cli.js' },
      {
        name: 'change',
        sops: path.join(SOPS, 'change'),
        company: await loadCompany(path.join(SOPS, 'change'), ROLES),
        root: change.worktree,
        board: changeBoard,
        current: changeBoard.latest<{ tasks: { file: string }[] }>('ChangeTaskGraph')!.payload.tasks[0]!.file,
      },
    );
    const plan = planContext(128_000, plannedSteps(sopPrompts(families[0]!.company, 'a CLI'), countPromptTokens), { replyTokens: 4096 });
    caps = { maxStringChars: plan.maxStringChars, maxItems: plan.maxItems };
  });
  after(removeTempDirs);

  it('states them for every ask, edit and clarify step of the shipped SOPs, from the same sources the checks read', async () => {
    let steps = 0;
    for (const family of families) {
      const policy = policyPort(await loadPolicy(family.sops));
      for (const role of family.company.roles) {
        for (const sop of [role.sop, ...Object.values(role.subSops)] as SopFile[]) {
          for (const [id, state] of Object.entries(sop.states)) {
            for (const invoke of invokesOf(state).filter((i) => ASKS.has(i.src))) {
              steps++;
              const where = `${family.name}: ${role.id}/${sop.id}/${id}`;
              const provider = new Capture(caps);
              const gateway = new Gateway({
                provider,
                renderer: new PromptRenderer(ROLES, markdownRenderers),
                meter: new UsageMeter(),
                exchanges: null,
                maxRepairs: 0,
              });
              const ports = portsFor(family, role, gateway, policy);
              const perFile = sop !== role.sop;
              const context: RoleContext = {
                ...initialContext(),
                current: perFile ? family.current : null,
                slots: slotsFor(family.board, family.current),
                error: 'The design is invalid:\n- the test command is refused',
                errors: ['The design is invalid:\n- the test command is refused'],
              };
              const view = (name: string) => resolveView(name, { context, board: family.board }, vocabulary.views);
              const judgedBy = () => rulesOfJudges(judgesOf(invoke.onDone, sop.states, vocabulary), vocabulary, ports, view);
              const params = invoke.input as Record<string, unknown>;
              await vocabulary.steps[invoke.src]!.run({ params, context, signal: new AbortController().signal, view, judgedBy }, ports).catch(() => {});
              assert.equal(provider.sent.length, 1, `${where}: the model was asked`);
              const prompt = provider.sent[0]!.map((m) => m.content).join('\n');

              // The steps that judge its reply, found by walking the SOP: the runtime finds them too, and the prompt states their rules.
              const judges = reachableJudges(sop, invoke.onDone);
              assert.deepEqual(judgesOf(invoke.onDone, sop.states, vocabulary), judges, `${where}: the runtime finds the same judges`);
              for (const judge of judges) {
                const rules = await vocabulary.steps[judge.src]!.rules!({ params: judge.params, view }, ports);
                assert.ok(rules.length > 0, `${where}: ${judge.src} says its rules`);
                for (const rule of rules) assert.ok(prompt.includes(rule), `${where}: the prompt states ${judge.src}'s rule "${rule.slice(0, 80)}…"`);
              }
              // Its own checks: the files its role may write, the schema with every constraint, the reply's limit.
              const output = invoke.src === 'edit' ? 'edits' : invoke.src === 'clarify' ? 'ClarifyingQuestions' : (params.output as string);
              if (output === 'files') assert.ok(prompt.includes(policy.writeRule(role.id).text), `${where}: the files its role may write`);
              if (output !== 'code' && output !== 'files' && output !== 'edits') {
                const schema = askOutputs[output]!;
                // clarify narrows the list to its `max`: the schema shown is that one, whose lengths are checked below.
                if (invoke.src !== 'clarify')
                  assert.ok(
                    prompt.includes(JSON.stringify(serverJsonSchema(schema, caps), null, 2)),
                    `${where}: the ${output} schema with every length and cap`,
                  );
                for (const node of refinedNodes(schema)) {
                  const said = (node as unknown as { description?: string }).description;
                  assert.ok(said && prompt.includes(JSON.stringify(said)), `${where}: the ${output} schema says what its refinement checks`);
                }
              }
              // One request's limit, the max_tokens it is sent with; and, for a reply that is continued, how far in all.
              assert.match(
                prompt,
                output === 'files'
                  ? /Each reply may be at most 4096 tokens \(about 12288 characters\)\. A reply cut off at that limit is continued: you are asked to go on exactly where it stopped, and the parts are joined — up to 12288 tokens \(about 36864 characters\) in all; a reply still cut off there is refused\./
                  : /Your whole reply may be at most 4096 tokens \(about 12288 characters\): one that reaches that limit is cut off, and refused\./,
                `${where}: its reply's limit`,
              );
              for (const local of [family.root, family.sops, os.homedir(), os.tmpdir()])
                assert.ok(!prompt.includes(local), `${where}: names no path of this machine (${local})`);
            }
          }
        }
      }
    }
    assert.ok(steps >= 50, `${steps} steps ask a model in the shipped SOPs`);
  });

  it('states the loop guard in a call it applies to: the same answer twice is refused', async () => {
    const family = families[0]!;
    const provider = new Capture(caps);
    const gateway = new Gateway({ provider, renderer: new PromptRenderer(ROLES, markdownRenderers), meter: new UsageMeter(), exchanges: null, maxRepairs: 0 });
    const role = family.company.roles.find((r) => r.id === 'architect')!;
    const tasks = family.board.latest('TaskGraph')!.payload;
    const ask = (occurrence: number) =>
      gateway.ask({
        call: { role: 'architect', action: 'fix_tasks', key: null },
        profile: role.profile,
        variables: { design: family.board.latest('Design')!.payload, tasks, errors: ['x'], key: null },
        output: { kind: 'json', name: 'TaskGraph', schema: askOutputs.TaskGraph! },
        occurrence,
      });
    const answer = JSON.stringify(tasks);
    provider.complete = async (request) => {
      provider.sent.push(request.messages);
      return { text: answer, usage: null, finishReason: 'stop' };
    };
    await ask(0);
    await assert.rejects(ask(1), /gave the same reply/);
    assert.ok(!provider.sent[0]!.some((m) => m.content.includes(LOOP_RULE)), 'the first call cannot loop');
    assert.ok(
      provider.sent[1]!.some((m) => m.content.includes(LOOP_RULE)),
      'the second states the rule',
    );
  });
});
