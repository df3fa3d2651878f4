/**
 * A change company's model per role is the model that role is asked: `change` chooses models the way
 * `run` does (src/session/model-choice.ts). The change of the greetings fixture is made once with its
 * scenario, every prompt and reply kept; a local OpenAI-compatible server then answers the same prompts
 * by that transcript, and a change company whose architect names its own model makes the same change
 * with the real ChatOpenAI client — the architect asked by its model, every other role by the run's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { changeSetUp, GREETINGS_SCENARIO, git } from '../helpers/change-repo.ts';
import { type FakeOpenAI, type FakeReply, startFakeOpenAI } from '../helpers/openai-server.ts';
import { SOPS } from '../helpers/paths.ts';
import { inSession } from '../helpers/session.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';
import { lookup, type Sent, TranscriptRecorder } from '../helpers/transcript.ts';

const ARCHITECT_MODEL = 'change-architect-model';

describe("sopworks change: a company's model per role", function () {
  this.timeout(180_000);
  let server: FakeOpenAI;
  let unknown: string[];

  before(async () => {
    const transcript = new Map<string, string>();
    const scripted = await changeSetUp();
    const recorded = await inSession(
      { change: { repo: scripted.repo, llm: `scripted:${scripted.scenarioFile}`, out: path.join(scripted.dir, 'out') } },
      { hooks: { provider: { wrap: (provider) => new TranscriptRecorder(provider, transcript) } } },
    );
    assert.equal(recorded.result?.run.outcome, 'done', recorded.lines.join('\n'));
    unknown = [];
    server = await startFakeOpenAI({
      replies: (body: { model: string; messages: Sent }): FakeReply => {
        const found = lookup(
          transcript,
          body.messages.map((m) => ({ role: m.role, content: m.content })),
        );
        if (found) return { content: found.reply, usage: { prompt_tokens: 1000, completion_tokens: 100 } };
        unknown.push(body.messages.at(-1)!.content.slice(0, 120));
        return { status: 400, error: { message: 'no recorded reply for this prompt' } };
      },
    });
  });

  after(async () => {
    await server?.close();
    await removeTempDirs();
  });

  it('asks the architect the model company.yaml gives it, and keeps it in run.json for resume', async () => {
    const sops = path.join(await tempDir(), 'change');
    await fs.cp(path.join(SOPS, 'change'), sops, { recursive: true });
    const company = await fs.readFile(path.join(sops, 'company.yaml'), 'utf8');
    await fs.writeFile(path.join(sops, 'company.yaml'), company.replace(/(  - id: architect\n)/, `$1    model: ${ARCHITECT_MODEL}\n`));
    const { repo, dir } = await changeSetUp();
    const request = (parse(await fs.readFile(GREETINGS_SCENARIO, 'utf8')) as { spec: string }).spec;
    const run = await inSession(
      { change: { repo, request, llm: 'openai', sops, out: path.join(dir, 'out') } },
      { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test', SOPWORKS_MODEL: 'run-model', SOPWORKS_RETRY_BASE_MS: '10' } },
    );
    assert.equal(run.result?.run.outcome, 'done', `${run.result?.run.reason}\n${String(run.error)}\n${run.lines.join('\n')}\n${unknown.join('\n')}`);
    assert.deepEqual(unknown, []);

    const project = run.result!.run.projectDir;
    const exchanges = (await fs.readFile(path.join(project, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string; model: string });
    const modelsOf = (role: string) => [...new Set(exchanges.filter((e) => e.role === role).map((e) => e.model))];
    const label = (model: string) => `openai:${model} at ${server.url}`;
    assert.deepEqual(modelsOf('architect'), [label(ARCHITECT_MODEL)]);
    for (const role of ['product-manager', 'engineer', 'qa']) assert.deepEqual(modelsOf(role), [label('run-model')], role);
    const asked = new Set(server.chatRequests().map((r) => (r.body as { model: string }).model));
    assert.deepEqual([...asked].sort(), [ARCHITECT_MODEL, 'run-model'].sort());

    const record = JSON.parse(await fs.readFile(path.join(project, '.sopworks', 'run.json'), 'utf8'));
    assert.deepEqual(
      record.llm.roles.architect.map((m: { model: string }) => m.model),
      [ARCHITECT_MODEL],
    );
    assert.match(git(project, 'log', '--format=%s'), /./, 'the change was committed');
  });
});
