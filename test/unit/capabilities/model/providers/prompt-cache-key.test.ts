/** Where OpenAI's prompt_cache_key is sent: OpenAI's own API by default, any endpoint when asked, never when told not to. */
import assert from 'node:assert/strict';
import { promptCacheKeyOf, rejectsPromptCacheKey, sendsPromptCacheKey } from '../../../../../src/capabilities/model/providers/prompt-cache-key.ts';
import { readSettings } from '../../../../../src/capabilities/model/settings.ts';

describe("OpenAI's prompt_cache_key", () => {
  it('is sent by default to OpenAI itself and to no other server', () => {
    assert.equal(sendsPromptCacheKey('auto', null), true);
    assert.equal(sendsPromptCacheKey('auto', 'https://api.openai.com/v1'), true);
    for (const other of ['http://localhost:8000/v1', 'http://127.0.0.1:11434/v1', 'https://api.openai.com.example.net/v1', 'not a url'])
      assert.equal(sendsPromptCacheKey('auto', other), false, other);
  });

  it('is sent anywhere with on, and nowhere with off', () => {
    assert.equal(sendsPromptCacheKey('on', 'http://localhost:8000/v1'), true);
    assert.equal(sendsPromptCacheKey('off', null), false);
  });

  it('is read from SOPWORKS_PROMPT_CACHE_KEY, auto when unset, and a wrong value is named', () => {
    assert.equal(readSettings({}).model.promptCacheKey, 'auto');
    assert.equal(readSettings({ SOPWORKS_PROMPT_CACHE_KEY: 'off' }).model.promptCacheKey, 'off');
    assert.throws(() => readSettings({ SOPWORKS_PROMPT_CACHE_KEY: 'yes' }), /SOPWORKS_PROMPT_CACHE_KEY.*must be auto, on or off/s);
  });

  it('is one per run and role, and says nothing of either but a hash', () => {
    assert.equal(promptCacheKeyOf('0a1b2c3d4e5f', 'engineer'), 'sopworks-0a1b2c3d4e5f-engineer');
  });

  it('is dropped on a refusal that names it, and only then', () => {
    const refusal = Object.assign(new Error('400 Unrecognized request argument supplied: prompt_cache_key'), { status: 400 });
    assert.equal(rejectsPromptCacheKey(refusal), true);
    assert.equal(rejectsPromptCacheKey(Object.assign(new Error('Extra inputs are not permitted: prompt_cache_key'), { status: 422 })), true);
    assert.equal(rejectsPromptCacheKey(Object.assign(new Error('400 response_format is not supported'), { status: 400 })), false);
    assert.equal(rejectsPromptCacheKey(Object.assign(new Error('prompt_cache_key rate limit'), { status: 429 })), false);
  });
});
