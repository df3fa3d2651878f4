/**
 * A model per role and fallbacks, through the real CLI and the real ChatOpenAI client against a local
 * OpenAI-compatible server. The server answers each prompt with the demo's recorded reply, but by model:
 * one model's context is too small (a vLLM-worded 400), another does not exist (404). Roles whose first
 * model cannot answer go to their fallback; the run builds the demo's repository, each role asked by the
 * model it was given, and a resumed run keeps asking the same models.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ScriptedProvider } from '../../src/capabilities/model/index.ts';
import { loadCompany, startRun } from '../../src/company/index.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES, ROOT, SOPS } from '../helpers/paths.ts';
import { demoScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';
import { lookup, type Sent, TranscriptRecorder } from '../helpers/transcript.ts';

const run = promisify(execFile);
const treeOf = async (dir: string) => (await run('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout.trim();

const COMPANY_YAML = `name: a company with a model per role
roles:
  - id: product-manager
    watches: [Requirement]
    model:
      model: small-context
      fallbacks: [pm-model]
  - id: architect
    watches: [PRD]
    model:
      model: no-such-model
      temperature: 0.1
      fallbacks:
        - model: architect-model
          price: { input: 3, output: 15 }
  - id: engineer
    watches: [TaskGraph, BugReport]
  - id: qa
    watches: [CodeComplete]
`;

interface Exchange {
  role: string;
  model?: string;
  unavailable?: string;
  ok: boolean;
  costUsd: number | null;
}

describe('a model per role, with fallbacks (real CLI, real ChatOpenAI client, local server)', function () {
  this.timeout(180_000);
  let transcript: Map<string, string>;
  let baselineTree: string;
  let sops: string;
  let server: FakeOpenAI;
  let unknown: string[];

  before(async () => {
    const scenario = await demoScenario();
    const recorder = new TranscriptRecorder(new ScriptedProvider('scripted:demo', scenario));
    const projectDir = path.join(await tempDir(), 'wordfreq');
    const baseline = await startRun({
      llm: { kind: 'scripted', file: 'demo' },
      spec: scenario.spec!,
      project: 'wordfreq',
      projectDir,
      company: await loadCompany(SOPS, ROLES),
      provider: recorder,
      maxRepairs: 2,
    });
    assert.equal(baseline.outcome, 'done', baseline.reason);
    transcript = recorder.replies;
    baselineTree = await treeOf(projectDir);

    sops = path.join(await tempDir(), 'sops');
    await fs.cp(SOPS, sops, { recursive: true });
    await fs.writeFile(path.join(sops, 'company.yaml'), COMPANY_YAML);

    unknown = [];
    server = await startFakeOpenAI({
      replies: (body: { model: string; messages: Sent }): FakeReply => {
        if (body.model === 'small-context') {
          return {
            status: 400,
            error: {
              message: "This model's maximum context length is 2048 tokens. However, you requested 6000 tokens (2000 in the messages, 4000 in the completion).",
              type: 'BadRequestError',
            },
          };
        }
        if (body.model === 'no-such-model')
          return { status: 404, error: { message: 'The model `no-such-model` does not exist.', code: 'model_not_found', type: 'invalid_request_error' } };
        const found = lookup(
          transcript,
          body.messages.map((m) => ({ role: m.role, content: m.content })),
        );
        if (!found) {
          unknown.push(body.messages.at(-1)!.content.slice(0, 120));
          return { status: 400, error: { message: 'no recorded reply for this prompt' } };
        }
        return { content: found.reply, usage: { prompt_tokens: 1500, completion_tokens: 100 } };
      },
    });
  });

  after(async () => {
    await server?.close();
    await removeTempDirs();
  });

  const env = () => ({
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-test',
    SOPWORKS_MODEL: 'run-model',
    SOPWORKS_RETRY_BASE_MS: '10',
    SOPWORKS_MAX_CONTINUATIONS: '0',
    SOPWORKS_MAX_OUTPUT_TOKENS: '1000',
  });
  const exchangesOf = async (project: string): Promise<Exchange[]> =>
    (await fs.readFile(path.join(project, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Exchange);
  const label = (model: string) => `openai:${model} at ${server.url}`;

  it('asks each role its own model, falls back when one cannot answer, and says so', async () => {
    const out = await tempDir();
    const cli = await sopworks(
      ['run', '--llm', 'openai', '--sops', sops, '--out', out, '--name', 'wordfreq', '--model-for', 'qa=qa-model', (await demoScenario()).spec!],
      {
        cwd: ROOT,
        env: env(),
      },
    );
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.deepEqual(unknown, []);
    const project = path.join(out, 'wordfreq');
    assert.equal(await treeOf(project), baselineTree, 'the same repository as the scripted run');

    const exchanges = await exchangesOf(project);
    const answered = new Map<string, Set<string>>();
    for (const e of exchanges.filter((x) => !x.unavailable)) answered.set(e.role, new Set([...(answered.get(e.role) ?? []), e.model!]));
    assert.deepEqual(Object.fromEntries([...answered].map(([role, models]) => [role, [...models]])), {
      'product-manager': [label('pm-model')],
      architect: [label('architect-model')],
      engineer: [label('run-model')],
      qa: [label('qa-model')],
    });
    const unavailable = exchanges.filter((x) => x.unavailable).map((x) => `${x.role}: ${x.model} (${x.unavailable})`);
    assert.ok(unavailable.includes(`product-manager: ${label('small-context')} (context length exceeded)`), unavailable.join('\n'));
    assert.ok(unavailable.includes(`architect: ${label('no-such-model')} (model not found)`), unavailable.join('\n'));
    // The server saw the fallbacks: each distinct first call went to the unavailable model first.
    const models = new Set(server.chatRequests().map((r) => r.body.model));
    for (const m of ['small-context', 'no-such-model', 'pm-model', 'architect-model', 'run-model', 'qa-model']) assert.ok(models.has(m), `${m} was asked`);
    assert.equal(server.chatRequests().find((r) => r.body.model === 'no-such-model')?.body.temperature, 0.1, "the role's own temperature is sent");

    assert.match(cli.stdout, /product-manager\s+⇄ write_prd: context length exceeded with openai:small-context at .*; asking openai:pm-model/);
    assert.match(cli.stdout, /architect\s+⇄ \w+: model not found with openai:no-such-model at .*; asking openai:architect-model/);
    for (const model of ['pm-model', 'architect-model', 'run-model', 'qa-model']) {
      assert.match(
        cli.stdout,
        new RegExp(`^ {2}openai:${model} at \\S+ — [\\d,]+ tokens, cost \\S+ — \\d+ calls?, [\\d,]+ prompt`, 'm'),
        `the summary has a line for ${model}`,
      );
    }
    assert.match(cli.stdout, /^ {2}openai:architect-model at \S+ — .*, cost \$\d/m, "the architect's model at its own price");

    // Each model is metered at its own price: the architect's at 3/15 $ per million tokens, the others unknown.
    const architectCosts = exchanges.filter((x) => x.role === 'architect' && !x.unavailable).map((x) => x.costUsd);
    assert.ok(
      architectCosts.length > 0 && architectCosts.every((c) => c !== null && Math.abs(c - (1500 * 3 + 100 * 15) / 1e6) < 1e-9),
      JSON.stringify(architectCosts),
    );
    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));
    assert.deepEqual(
      record.llm.roles.architect.map((m: { model: string }) => m.model),
      ['no-such-model', 'architect-model'],
    );
    assert.deepEqual(
      record.llm.roles.qa.map((m: { model: string }) => m.model),
      ['qa-model'],
    );
    assert.ok(record.usage.byModel[label('architect-model')].calls > 0);
  });

  it('keeps each role on its models when a run stopped by its budget is resumed', async () => {
    const out = await tempDir();
    const project = path.join(out, 'wordfreq');
    const first = await sopworks(
      [
        'run',
        '--llm',
        'openai',
        '--sops',
        sops,
        '--out',
        out,
        '--name',
        'wordfreq',
        '--model-for',
        'qa=qa-model',
        '--max-tokens',
        '9000',
        (await demoScenario()).spec!,
      ],
      {
        cwd: ROOT,
        env: env(),
      },
    );
    assert.equal(first.code, 3, first.stdout + first.stderr);
    const before = (await exchangesOf(project)).length;
    const resumed = await sopworks(['resume', project, '--max-tokens', '10000000'], { cwd: ROOT, env: env() });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(await treeOf(project), baselineTree);
    const after = (await exchangesOf(project)).slice(before).filter((x) => !x.unavailable);
    const qa = after.filter((x) => x.role === 'qa');
    assert.ok(qa.length > 0 && qa.every((x) => x.model === label('qa-model')), 'QA still asks the model --model-for gave it, without the flag again');
    assert.ok(after.filter((x) => x.role === 'engineer').every((x) => x.model === label('run-model')));
  });

  it('refuses --model-for with a role the company does not hire, or in the wrong shape, before anything is written', async () => {
    const out = await tempDir();
    for (const [flag, message] of [
      [
        'architekt=gpt-4o',
        /--model-for names the role "architekt", which this company does not hire[\s\S]*Roles hired \(sops\/company\.yaml\): product-manager, architect, engineer, qa/,
      ],
      ['gpt-4o', /--model-for "gpt-4o" is not <role>=<model>/],
    ] as const) {
      const cli = await sopworks(['run', '--llm', 'openai', '--sops', sops, '--out', out, '--model-for', flag, 'a spec'], { cwd: ROOT, env: env() });
      assert.equal(cli.code, 2, cli.stderr);
      assert.match(cli.stderr, message);
    }
    assert.deepEqual(await fs.readdir(out), [], 'nothing was written');
  });

  it('stops before anything is written when a role takes its key from a variable that is not set', async () => {
    const out = await tempDir();
    const keyed = path.join(await tempDir(), 'sops');
    await fs.cp(sops, keyed, { recursive: true });
    await fs.writeFile(path.join(keyed, 'company.yaml'), COMPANY_YAML.replace('temperature: 0.1', 'temperature: 0.1\n      apiKeyEnv: ARCHITECT_API_KEY'));
    const cli = await sopworks(['run', '--llm', 'openai', '--sops', keyed, '--out', out, 'a spec'], { cwd: ROOT, env: env() });
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, /The role "architect" takes its API key from ARCHITECT_API_KEY \(sops\/company\.yaml\), and ARCHITECT_API_KEY is not set/);
    assert.deepEqual(await fs.readdir(out), []);
    const validate = await sopworks(['sop', 'validate', '--sops', keyed], { cwd: ROOT, env: env() });
    assert.match(validate.stdout + validate.stderr, /company\.yaml:\d+:\d+.*ARCHITECT_API_KEY is not set in this environment/);
  });
});
