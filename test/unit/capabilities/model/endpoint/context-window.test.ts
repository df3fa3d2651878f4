/** The model list a server answers /models with, read through jsonAs: what is not a model list reads as null. */
import assert from 'node:assert/strict';
import { contextWindowIn } from '../../../../../src/capabilities/model/endpoint/context-window.ts';

describe('contextWindowIn', () => {
  it("reads the window of the model asked for, in the fields vLLM's and llama.cpp's servers use", () => {
    const vllm = JSON.stringify({
      object: 'list',
      data: [
        { id: 'other', max_model_len: 4096 },
        { id: 'qwen', object: 'model', max_model_len: 32768 },
      ],
    });
    assert.equal(contextWindowIn(vllm, 'qwen'), 32768);
    const llamaCpp = JSON.stringify({ data: [{ id: 'tiny.gguf', meta: { n_ctx_train: 2048, n_ctx: 1024 } }] });
    assert.equal(contextWindowIn(llamaCpp, 'tiny.gguf'), 1024);
  });

  it('says null for a model not listed, an entry without a window, and a body that is not a model list', () => {
    const list = JSON.stringify({ data: [{ id: 'gpt-4o-mini', owned_by: 'openai' }] });
    assert.equal(contextWindowIn(list, 'gpt-4o'), null);
    assert.equal(contextWindowIn(list, 'gpt-4o-mini'), null);
    assert.equal(contextWindowIn('<html>proxy error</html>', 'gpt-4o-mini'), null);
    assert.equal(contextWindowIn('{"error":{"message":"unauthorized"}}', 'gpt-4o-mini'), null);
  });
});
