/**
 * One model, one name: a scenario or a model file named relative or absolute, through `./` or `..`, an
 * endpoint with or without a trailing slash — counted under one name in a run's usage per model.
 */
import assert from 'node:assert/strict';
import { modelIdentity } from '../../../../src/capabilities/model/model-identity.ts';
import { type CallRecord, UsageMeter } from '../../../../src/capabilities/model/usage.ts';

const call = (model: string | undefined, promptTokens = 10): CallRecord => ({
  role: 'qa',
  action: 'write_tests',
  key: null,
  promptTokens,
  completionTokens: 1,
  counted: false,
  repairs: 0,
  retries: 0,
  costUsd: null,
  ms: 1,
  ok: true,
  ...(model === undefined ? {} : { model }),
});

describe('a model named two ways is one model', () => {
  const cwd = '/work/project';
  const same: [string, string[]][] = [
    [
      'scripted:/work/project/examples/wordfreq.yaml',
      [
        'scripted:examples/wordfreq.yaml',
        'scripted:./examples/wordfreq.yaml',
        'scripted:examples/../examples/wordfreq.yaml',
        'scripted:/work/project/examples//wordfreq.yaml',
      ],
    ],
    ['local:/work/project/models/qwen.gguf', ['local:models/qwen.gguf', 'local:./models/qwen.gguf', 'local:/work/project/models/qwen.gguf']],
    ['openai:gpt-4o at http://localhost:8000/v1', ['openai:gpt-4o at http://localhost:8000/v1/', 'openai:gpt-4o at http://localhost:8000/v1//']],
  ];
  for (const [identity, names] of same) {
    it(`${identity}`, () => {
      for (const name of names) assert.equal(modelIdentity(name, cwd), identity, name);
    });
  }

  it('leaves apart what is not the same model: another file, a cache name, another model or endpoint', () => {
    assert.notEqual(modelIdentity('scripted:a.yaml', cwd), modelIdentity('scripted:b.yaml', cwd));
    assert.equal(modelIdentity('local:qwen2.5-coder-7b', cwd), 'local:qwen2.5-coder-7b', 'a cache name is a name');
    assert.equal(modelIdentity('openai:gpt-4o-mini', cwd), 'openai:gpt-4o-mini');
    assert.notEqual(modelIdentity('openai:gpt-4o at http://a/v1', cwd), modelIdentity('openai:gpt-4o at http://b/v1', cwd));
  });

  it('counts the calls of one model named two ways under one name, and unnamed calls apart', () => {
    const meter = new UsageMeter();
    meter.record(call(`scripted:examples/wordfreq.yaml`));
    meter.record(call(`scripted:${process.cwd()}/examples/wordfreq.yaml`, 20));
    meter.record(call('openai:gpt-4o'));
    meter.record(call(undefined));
    const byModel = meter.byModel();
    assert.deepEqual(
      [...byModel.entries()].map(([name, totals]) => [name, totals.calls, totals.promptTokens]),
      [
        [`scripted:${process.cwd()}/examples/wordfreq.yaml`, 2, 30],
        ['openai:gpt-4o', 1, 10],
        ['unknown', 1, 10],
      ],
    );
  });
});
