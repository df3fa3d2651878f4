/**
 * OpenAI's prompt_cache_key on a real run against an OpenAI-compatible server: one key per run and role
 * where it is asked for, none by default to a server that is not OpenAI's, and a server that refuses it by
 * name is not sent it again — the run goes on.
 */
import assert from 'node:assert/strict';
import { loadRoleProfile, reviewerOf } from '../../src/engine/roles/index.ts';
import { demoRepliesInOrder, demoSpec } from '../helpers/demo-replies.ts';
import { sopworks } from '../helpers/in-process.ts';
import { type FakeOpenAI, type FakeReply, type RecordedRequest, startFakeOpenAI } from '../helpers/openai-server.ts';
import { ROLES } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

describe('prompt_cache_key', function () {
  this.timeout(240_000);
  after(removeTempDirs);

  let replies: string[];
  /** The Engineer's reviewer is a person of the Engineer's role: their requests are the role's. */
  let sameRole: Map<string, string>;
  before(async () => {
    replies = await demoRepliesInOrder();
    const engineer = await loadRoleProfile(ROLES, 'engineer');
    sameRole = new Map([[reviewerOf(engineer).title, engineer.title]]);
  });

  /** A run of the demo against a server answering with its replies; `answer` may refuse a request instead. */
  async function runAgainst(env: Record<string, string>, refuse: (body: any) => FakeReply | null = () => null) {
    let next = 0;
    const server: FakeOpenAI = await startFakeOpenAI({ replies: (body) => refuse(body) ?? { content: replies[next++] } });
    try {
      const out = await tempDir();
      const result = await sopworks(['run', await demoSpec(), '--name', 'wordfreq', '--out', out, '--concurrency', '1'], {
        cwd: out,
        env: { OPENAI_BASE_URL: server.url, SOPWORKS_MODEL: 'test-model', ...env },
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      return { result, requests: server.chatRequests() };
    } finally {
      await server.close();
    }
  }

  /** Which role asked each request: its part of the request names the role's person. */
  const roleOf = (request: RecordedRequest): string => {
    const title = /^You are \w+, the ([\w ]+?)\.$/m.exec(request.body.messages[1].content)?.[1] ?? '?';
    return sameRole.get(title) ?? title;
  };

  it('sends one key per run and role when asked to (SOPWORKS_PROMPT_CACHE_KEY=on)', async () => {
    const { requests } = await runAgainst({ SOPWORKS_PROMPT_CACHE_KEY: 'on' });
    const keys = new Map<string, Set<string>>();
    for (const r of requests) keys.set(roleOf(r), (keys.get(roleOf(r)) ?? new Set()).add(r.body.prompt_cache_key));
    assert.deepEqual([...keys.keys()], ['Product Manager', 'Architect', 'Engineer', 'QA Engineer']);
    const perRole = [...keys.values()].map((k) => [...k]);
    assert.ok(
      perRole.every((k) => k.length === 1 && /^sopworks-[0-9a-f]{12}-[a-z-]+$/.test(k[0]!)),
      JSON.stringify(perRole),
    );
    assert.equal(new Set(perRole.flat()).size, 4, 'a key per role');
    assert.equal(new Set(perRole.flat().map((k) => k.split('-')[1])).size, 1, 'one run');
  });

  it('sends none to a server that is not OpenAI unless asked', async () => {
    const { requests } = await runAgainst({});
    assert.equal(requests.length, replies.length, 'one request per recorded reply');
    assert.ok(requests.every((r) => !('prompt_cache_key' in r.body)));
  });

  it('stops sending it once a server refuses it by name, says so once, and the run goes on', async () => {
    const refusal: FakeReply = {
      status: 400,
      error: { message: 'Unrecognized request argument supplied: prompt_cache_key', type: 'invalid_request_error' },
    };
    const { result, requests } = await runAgainst({ SOPWORKS_PROMPT_CACHE_KEY: 'on' }, (body) => ('prompt_cache_key' in body ? refusal : null));
    assert.equal(requests.filter((r) => 'prompt_cache_key' in r.body).length, 1, 'the first request only');
    assert.equal(requests.length, replies.length + 1, 'that one sent again without it, then the run as usual');
    const notices = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.includes('rejected prompt_cache_key'));
    assert.equal(notices.length, 1, result.stdout + result.stderr);
    assert.match(notices[0]!, /it is not sent again in this run\. Set SOPWORKS_PROMPT_CACHE_KEY=off/);
  });
});
