/**
 * The whole company against the local OpenAI-compatible server, through the real ChatOpenAI client.
 * The server answers each prompt with the reply the demo scenario gave that same prompt in a scripted
 * run (recorded first: the run without faults), so a run through the server must build the same
 * repository. With faults
 * injected into a third of the calls — 429 with and without Retry-After, 500/502/503, a timeout, a
 * connection reset, a reply cut off at the output limit — it still does; and so it does against an
 * endpoint that rejects structured output.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CONTINUE_PROMPT, createOpenAIProvider, type Provider, type RetryEvent, readSettings, ScriptedProvider } from '../../src/capabilities/model/index.ts';
import { loadCompany, type RunResult, readRunRecord, resumeRun, startRun } from '../../src/company/index.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES, SOPS } from '../helpers/paths.ts';
import { demoScenario } from '../helpers/run-company.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';
import { lookup, type Sent, TranscriptRecorder } from '../helpers/transcript.ts';

const run = promisify(execFile);
const treeOf = async (dir: string) => (await run('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir })).stdout.trim();

const FAULTS = ['429', '429 with Retry-After', '500', '502', '503', 'timeout', 'connection reset', 'finish_reason length'] as const;
type Fault = (typeof FAULTS)[number];
const TIMEOUT_MS = 1000;

function faulty(fault: Fault, reply: string): FakeReply {
  switch (fault) {
    case '429':
      return { status: 429 };
    case '429 with Retry-After':
      return { status: 429, headers: { 'retry-after': '1' } };
    case '500':
    case '502':
    case '503':
      return { status: Number(fault) };
    case 'timeout':
      return { delayMs: TIMEOUT_MS * 10, content: reply };
    case 'connection reset':
      return { resetMidResponse: true, content: reply };
    case 'finish_reason length':
      return { content: reply.slice(0, Math.ceil(reply.length / 2)), finishReason: 'length' };
  }
}

/**
 * Answers from the transcript. With `faults`, the first request of every third distinct prompt gets the
 * next fault in turn (the retry gets the real reply); a continuation gets the rest of the reply. A cut-off
 * reply that lands on a structured (JSON) call is owed again to the next code call, so that both ways of
 * handling it are exercised.
 */
function transcriptServer(
  transcript: Map<string, string>,
  options: { faults?: boolean; rejectResponseFormat?: boolean; limitAt?: { prompt: number; reply: FakeReply } } = {},
) {
  const seen = new Map<string, number>();
  const injected: Fault[] = [];
  const unknown: string[] = [];
  let cutOffStillOwed = false;
  const respond = (body: { messages: Sent; response_format?: unknown }): FakeReply => {
    if (options.rejectResponseFormat && body.response_format) {
      return {
        status: 400,
        error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error' },
      };
    }
    const messages = body.messages.map((m) => ({ role: m.role, content: m.content }));
    if (messages.at(-1)?.content === CONTINUE_PROMPT) {
      const partial = messages.at(-2)!.content;
      const full = lookup(transcript, messages.slice(0, -2))?.reply;
      if (full === undefined || !full.startsWith(partial))
        return { status: 400, error: { message: 'the fake server cannot continue a reply it did not start' } };
      return { content: full.slice(partial.length) };
    }
    const found = lookup(transcript, messages);
    if (found === null) {
      unknown.push(messages.at(-1)!.content.slice(0, 200));
      return { status: 400, error: { message: 'the fake server has no recorded reply for this prompt' } };
    }
    const { key, reply } = found;
    const attempt = (seen.get(key) ?? 0) + 1;
    seen.set(key, attempt);
    if (options.limitAt && attempt === 1 && seen.size === options.limitAt.prompt) return options.limitAt.reply;
    if (!options.faults || attempt !== 1) return { content: reply };
    // A cut-off reply is continued only without response_format: make sure a code call gets one too.
    if (cutOffStillOwed && !body.response_format) {
      cutOffStillOwed = false;
      injected.push('finish_reason length');
      return faulty('finish_reason length', reply);
    }
    if (seen.size % 3 === 2) {
      const fault = FAULTS[injected.length % FAULTS.length]!;
      injected.push(fault);
      if (fault === 'finish_reason length' && body.response_format) cutOffStillOwed = true;
      return faulty(fault, reply);
    }
    return { content: reply };
  };
  return { respond, injected, unknown, distinctPrompts: () => seen.size };
}

describe('the whole company against the local server, with faults', function () {
  this.timeout(120_000);
  const servers: FakeOpenAI[] = [];
  let transcript: Map<string, string>;
  let baselineTree: string;
  let spec: string;

  const runCompany = async (
    provider: Provider,
    llm: { kind: 'openai'; model: string } | { kind: 'scripted'; file: string },
  ): Promise<{ result: RunResult; tree: string; projectDir: string }> => {
    const company = await loadCompany(SOPS, ROLES);
    const projectDir = path.join(await tempDir(), 'wordfreq');
    const result = await startRun({ llm, spec, project: 'wordfreq', projectDir, company, provider, maxRepairs: 2 });
    return { result, tree: await treeOf(projectDir), projectDir };
  };

  const serverRun = async (
    options: { faults?: boolean; rejectResponseFormat?: boolean; limitAt?: { prompt: number; reply: FakeReply } },
    env: Record<string, string> = {},
  ) => {
    const answers = transcriptServer(transcript, options);
    const server = await startFakeOpenAI({ replies: answers.respond });
    servers.push(server);
    const settings = readSettings({
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: 'sk-test',
      SOPWORKS_MODEL: 'test-model',
      SOPWORKS_RETRY_BASE_MS: '10',
      SOPWORKS_TIMEOUT_MS: String(TIMEOUT_MS),
      ...env,
    });
    const notices: string[] = [];
    const retries: RetryEvent[] = [];
    const provider = await createOpenAIProvider(settings.model, { onNotice: (m) => notices.push(m), onRetry: (_call, e) => retries.push(e) });
    const { result, tree, projectDir } = await runCompany(provider, { kind: 'openai', model: 'test-model' });
    assert.deepEqual(answers.unknown, [], 'every prompt was one the scripted run sent');
    return { result, tree, answers, server, notices, retries, provider, projectDir };
  };

  before(async () => {
    const scenario = await demoScenario();
    spec = scenario.spec!;
    const recorder = new TranscriptRecorder(new ScriptedProvider('scripted:demo', scenario));
    const baseline = await runCompany(recorder, { kind: 'scripted', file: 'examples/wordfreq.yaml' });
    assert.equal(baseline.result.outcome, 'done', baseline.result.reason);
    transcript = recorder.replies;
    baselineTree = baseline.tree;
  });

  after(async () => {
    for (const server of servers) await server.close();
    await removeTempDirs();
  });

  it('builds the same repository with faults injected into a third of the calls', async () => {
    const { result, tree, answers, retries, server } = await serverRun({ faults: true });
    assert.equal(result.outcome, 'done', result.reason);
    assert.equal(tree, baselineTree);
    assert.ok(answers.injected.length >= Math.floor(answers.distinctPrompts() / 3), `${answers.injected.length} faults in ${answers.distinctPrompts()} calls`);
    assert.deepEqual(new Set(answers.injected), new Set(FAULTS), 'every kind of fault was injected');
    const transient = answers.injected.filter((f) => f !== 'finish_reason length').length;
    assert.ok(retries.length >= transient, `each transient fault was retried: ${retries.length} retries for ${transient} faults`);
    assert.equal(result.usage.total().retries, retries.length, 'every retry is metered');
    const continuations = server.chatRequests().filter((r) => r.body.messages.at(-1)?.content === CONTINUE_PROMPT).length;
    assert.ok(continuations >= 1, 'a reply cut off at the output limit was continued');
    assert.ok(server.chatRequests().length > transcript.size);
    console.log(
      `      ${answers.injected.length} faults in ${answers.distinctPrompts()} calls (${answers.injected.join(', ')}): ` +
        `${retries.length} retries, ${continuations} continuation(s), ${server.chatRequests().length} requests; same tree`,
    );
  });

  it('builds the same repository against an endpoint that rejects structured output, saying so once', async () => {
    const { result, tree, notices, server } = await serverRun({ rejectResponseFormat: true });
    assert.equal(result.outcome, 'done', result.reason);
    assert.equal(tree, baselineTree);
    assert.equal(notices.length, 1);
    const withFormat = server.chatRequests().filter((r) => r.body.response_format);
    assert.equal(withFormat.length, 1, 'structured output was tried once, then left off for the rest of the run');
  });

  /** The Architect's first call meets a limit that resets in two seconds, as OpenAI says it. */
  const limitAt = {
    prompt: 5,
    reply: {
      status: 429,
      error: { message: 'Rate limit reached for requests' },
      headers: { 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-remaining-requests': '0' },
    },
  };

  it('a limit that resets later pauses the run, saying when; resumed after it, the run builds the same repository', async () => {
    const { result, server, provider, projectDir } = await serverRun({ limitAt }, { SOPWORKS_RETRY_MAX_MS: '500' });
    assert.equal(result.outcome, 'paused', result.reason);
    assert.match(
      result.reason,
      /paused in step .*: The model endpoint .* is at its limit .* it resets at \d\d:\d\d:\d\d UTC \(in 2 s\) — by the x-ratelimit-reset-requests header/,
    );
    const record = await readRunRecord(path.join(projectDir, '.sopworks'));
    assert.equal(record.outcome, 'paused');
    assert.equal(record.resumeAt, result.resumeAt);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(record.resumeAt!) - Date.now())));
    const resumed = await resumeRun({ projectDir, record, company: await loadCompany(SOPS, ROLES), provider, maxRepairs: 2 });
    assert.equal(resumed.outcome, 'done', resumed.reason);
    assert.equal(await treeOf(projectDir), baselineTree);
    assert.equal((await readRunRecord(path.join(projectDir, '.sopworks'))).resumeAt, undefined, 'done: no time to resume at');
    assert.ok(server.chatRequests().length > transcript.size);
  });

  it('with SOPWORKS_WAIT_FOR_QUOTA the run waits for the reset and goes on, building the same repository', async () => {
    const started = Date.now();
    const { result, tree, notices } = await serverRun({ limitAt }, { SOPWORKS_WAIT_FOR_QUOTA: 'true', SOPWORKS_RETRY_MAX_MS: '500' });
    assert.equal(result.outcome, 'done', result.reason);
    assert.equal(tree, baselineTree);
    assert.equal(notices.filter((n) => /paused until/.test(n)).length, 1, notices.join('\n'));
    assert.ok(Date.now() - started >= 2000);
  });
});
