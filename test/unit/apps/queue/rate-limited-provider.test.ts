/**
 * A queue worker's rate-limited provider hides none of the limits of the provider it wraps (issue 36, no
 * hidden rules): a planned run's caps go into the schema the wrapped provider sends, so the prompt must
 * state them, and a reply of files keeps its own allowance — both read through the wrapper by the gateway.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RateLimitedProvider } from '../../../../src/apps/queue/rate-limited-provider.ts';
import type { SharedRateLimits } from '../../../../src/apps/queue/rate-limits.ts';
import {
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  Gateway,
  PromptRenderer,
  type Provider,
  type ReplyShape,
  UsageMeter,
} from '../../../../src/capabilities/model/index.ts';
import { markdownRenderers } from '../../../../src/company/index.ts';
import { Review } from '../../../../src/documents/index.ts';
import { loadRoleProfile } from '../../../../src/engine/roles/index.ts';
import { ROLES } from '../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../helpers/temp-dir.ts';

/** A planned model of a 128k context: caps in its schema, files continued further, one request's max_tokens. */
class Planned implements Provider {
  readonly label = 'planned';
  readonly contextWindow = 128_000;
  readonly replyAllowance = 4096;
  readonly outputLimit = 4096;
  readonly schemaCaps = { maxStringChars: 3072, maxItems: 64 };
  readonly cutOffLimits = { perStep: 3 * 4096, perRequest: 4096 };
  readonly sent: ChatMessage[][] = [];
  replyAllowanceFor(output: ReplyShape): number {
    return output.kind === 'files' ? 3 * 4096 : 4096;
  }
  async complete(request: CompletionRequest): Promise<Completion> {
    this.sent.push(request.messages);
    return { text: '{"approved": true, "issues": []}', usage: null, finishReason: 'stop' };
  }
}

const free = { settings: { rpm: null, tpm: null }, acquire: async () => {}, settle: async () => {} } as unknown as SharedRateLimits;

describe("a queue worker's rate-limited provider", () => {
  after(removeTempDirs);

  it('reports every limit of the provider it wraps', () => {
    const inner = new Planned();
    const outer = new RateLimitedProvider(inner, free);
    for (const key of ['contextWindow', 'replyAllowance', 'outputLimit', 'schemaCaps', 'cutOffLimits'] as const) assert.deepEqual(outer[key], inner[key], key);
    assert.equal(outer.replyAllowanceFor?.({ kind: 'files' }), 3 * 4096);
    assert.equal(outer.replyAllowanceFor?.({ kind: 'json', schema: Review }), 4096);
    const bare = new RateLimitedProvider({ label: 'bare', complete: inner.complete.bind(inner) }, free);
    assert.equal(bare.replyAllowanceFor, undefined, 'none where the wrapped provider has none: the route says');
  });

  it("has the gateway state the caps the wrapped provider's schema carries", async () => {
    const roles = await tempDir();
    await fs.cp(path.join(ROLES, '_shared'), path.join(roles, '_shared'), { recursive: true });
    await fs.mkdir(path.join(roles, 'engineer'));
    await fs.copyFile(path.join(ROLES, 'engineer', 'role.yaml'), path.join(roles, 'engineer', 'role.yaml'));
    await fs.writeFile(path.join(roles, 'engineer', 'review_file.hbs'), 'Review `{{key}}`.\n');
    const inner = new Planned();
    const gateway = new Gateway({
      provider: new RateLimitedProvider(inner, free),
      renderer: new PromptRenderer(roles, markdownRenderers),
      meter: new UsageMeter(),
      exchanges: null,
      maxRepairs: 0,
    });
    const call = { role: 'engineer', action: 'review_file', key: 'src/a.js' };
    const profile = await loadRoleProfile(roles, 'engineer');
    await gateway.ask({ call, profile, variables: { key: 'src/a.js' }, output: { kind: 'json', name: 'Review', schema: Review }, occurrence: 0 });
    const prompt = inner.sent[0]!.map((m) => m.content).join('\n');
    assert.match(prompt, /"maxItems": 64/);
    assert.match(prompt, /"maxLength": 3072/);
  });
});
