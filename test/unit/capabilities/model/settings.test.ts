import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { DEFAULT_MODEL, readSettings } from '../../../../src/capabilities/model/settings.ts';
import { SopworksError } from '../../../../src/ground/errors.ts';
import { ROOT } from '../../../helpers/paths.ts';

describe('settings', () => {
  it('takes .env.example copied as it is: every setting at its default, no model configured', () => {
    const env = parseEnv(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8')) as NodeJS.ProcessEnv;
    assert.ok(Object.keys(env).length >= 9, 'every documented setting is in .env.example');
    const settings = readSettings(env);
    assert.equal(settings.openaiConfigured, false);
    assert.equal(settings.model.model, DEFAULT_MODEL);
    assert.equal(settings.model.structuredOutput, 'json_schema');
    assert.equal(settings.model.maxRetries, 4);
    assert.equal(settings.maxRepairs, 2);
    assert.equal(settings.scriptedLatencyMs, 0);
  });

  it('documents in .env.example every setting it reads', () => {
    const documented = Object.keys(parseEnv(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8')));
    // Settings read apart from settings.ts: the local engine's (only for --llm local), the queue's (a single run needs none), the install's.
    const source = [
      'src/capabilities/model/settings.ts',
      'src/capabilities/model/providers/local/local-settings.ts',
      'src/capabilities/model/local-models/models-dir.ts',
      'src/capabilities/model/providers/local/engine-dir.ts',
      'src/apps/queue/redis-connection.ts',
      'src/apps/queue/rate-limits.ts',
      'src/apps/queue/job-signature.ts',
      'src/host/install/manager-program.ts',
    ]
      .map((file) => fs.readFileSync(path.join(ROOT, file), 'utf8'))
      .join('\n');
    // A zod field of a settings schema, or a folder setting read through ground's cacheFolder.
    const read = [...source.matchAll(/^\s+((?:OPENAI|SOPWORKS)_[A-Z_]+):|cacheFolder\(env, '((?:OPENAI|SOPWORKS)_[A-Z_]+)'/gm)].map((m) => m[1] ?? m[2]);
    assert.deepEqual([...read].sort(), [...documented].sort());
  });

  it('treats a base URL alone as a configured endpoint (local servers need no key)', () => {
    const settings = readSettings({ OPENAI_BASE_URL: 'http://localhost:11434/v1', SOPWORKS_MODEL: 'llama3.1' });
    assert.equal(settings.openaiConfigured, true);
    assert.equal(settings.model.apiKey, null);
    assert.equal(settings.model.model, 'llama3.1');
  });

  it('names every invalid setting and points to .env.example', () => {
    assert.throws(
      () => readSettings({ OPENAI_BASE_URL: 'localhost:11434', SOPWORKS_MAX_RETRIES: 'many', SOPWORKS_STRUCTURED_OUTPUT: 'yaml' }),
      (error: unknown) => {
        assert.ok(SopworksError.isInstance(error));
        assert.equal(error.code, 'CONFIG_INVALID');
        assert.match(error.message, /OPENAI_BASE_URL/);
        assert.match(error.message, /SOPWORKS_MAX_RETRIES: must be a whole number ≥ 0, got "many"/);
        assert.match(error.message, /SOPWORKS_STRUCTURED_OUTPUT/);
        assert.match(error.hint ?? '', /\.env\.example/);
        return true;
      },
    );
  });
});
