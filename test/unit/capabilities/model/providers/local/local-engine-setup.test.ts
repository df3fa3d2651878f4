/**
 * What the local provider decides before any model runs: the --llm flag, its settings, threads, context
 * and memory, the grammar's schema, and the message when the engine is not installed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { modelsDir } from '../../../../../../src/capabilities/model/local-models/models-dir.ts';
import { resolveLocalModel } from '../../../../../../src/capabilities/model/local-models/resolve-local-model.ts';
import { grammarJsonSchema } from '../../../../../../src/capabilities/model/providers/local/artifact-grammar.ts';
import { detectGpu } from '../../../../../../src/capabilities/model/providers/local/detect-gpu.ts';
import { engineDir } from '../../../../../../src/capabilities/model/providers/local/engine-dir.ts';
import { ENGINE_VERSION, enginePackages } from '../../../../../../src/capabilities/model/providers/local/engine-packages.ts';
import { ENGINE_PACKAGE, installedIn, loadEngine } from '../../../../../../src/capabilities/model/providers/local/load-engine.ts';
import { readLocalSettings } from '../../../../../../src/capabilities/model/providers/local/local-settings.ts';
import { chooseContextSize, chooseThreads, memoryShortfall } from '../../../../../../src/capabilities/model/providers/local/machine-fit.ts';
import { parseLlmFlag } from '../../../../../../src/capabilities/model/select-provider.ts';
import { readSettings } from '../../../../../../src/capabilities/model/settings.ts';
import { Design, PRD } from '../../../../../../src/documents/index.ts';
import { SopworksError } from '../../../../../../src/ground/errors.ts';
import { ROOT } from '../../../../../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../../../../../helpers/temp-dir.ts';

describe('local engine set-up', () => {
  it('reads --llm local, local:<name> and local:<path>', () => {
    const settings = readSettings({});
    assert.deepEqual(parseLlmFlag('local', settings), { kind: 'local', model: null });
    assert.deepEqual(parseLlmFlag('local:qwen2.5-coder-7b', settings), { kind: 'local', model: 'qwen2.5-coder-7b' });
    assert.deepEqual(parseLlmFlag('local:~/models/a.gguf', settings), { kind: 'local', model: '~/models/a.gguf' });
    assert.throws(() => parseLlmFlag('locally', settings), /Unknown --llm "locally"[\s\S]*/);
  });

  it('uses one thread on two cores or fewer, all but one above', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 16].map((n) => chooseThreads(n)),
      [1, 1, 2, 3, 15],
    );
  });

  it('gives the context the model was trained on, within a ceiling', () => {
    assert.equal(chooseContextSize(4096, 16_384), 4096);
    assert.equal(chooseContextSize(131_072, 16_384), 16_384);
    assert.equal(chooseContextSize(undefined, 16_384), 2048);
    assert.equal(chooseContextSize(512, 16_384), 512, 'never more than the model was trained on');
  });

  it('says how much memory a model needs and how much is free', () => {
    assert.equal(memoryShortfall(1e9, 2e9, 'RAM'), null);
    assert.equal(memoryShortfall(6.2e9, 3.5e9, 'RAM'), 'the model needs about 6.2 GB of RAM with its context, and 3.5 GB is free');
  });

  it('reads its settings, refusing bad values with the setting named', () => {
    const documented = parseEnv(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8')) as NodeJS.ProcessEnv;
    assert.deepEqual(readLocalSettings(documented), { contextSize: null, threads: null, gpu: 'auto', maxStringChars: null, maxItems: null, seed: null });
    assert.deepEqual(readLocalSettings({ SOPWORKS_LOCAL_CONTEXT: '8192', SOPWORKS_LOCAL_THREADS: '2', SOPWORKS_LOCAL_GPU: 'off' }).contextSize, 8192);
    assert.throws(
      () => readLocalSettings({ SOPWORKS_LOCAL_CONTEXT: 'big', SOPWORKS_LOCAL_GPU: 'cuda' }),
      (error: unknown) =>
        SopworksError.isInstance(error) &&
        error.code === 'CONFIG_INVALID' &&
        /SOPWORKS_LOCAL_CONTEXT/.test(error.message) &&
        /SOPWORKS_LOCAL_GPU: must be auto or off/.test(error.message),
    );
  });

  it('keeps the models in SOPWORKS_MODELS_DIR, else in the user cache folder', () => {
    assert.equal(modelsDir({ SOPWORKS_MODELS_DIR: '/srv/models' }), '/srv/models');
    assert.equal(modelsDir({ XDG_CACHE_HOME: '/c' }), '/c/sopworks/models');
  });

  it('builds the grammar schema closed, with the limits a grammar enforces and without the ones it cannot', () => {
    const schema = grammarJsonSchema(
      z.object({
        name: z.string().min(2).max(5),
        code: z.string().regex(/^[A-Z]+$/),
        tags: z.array(z.string()).min(1),
        note: z.string().nullable().optional(),
        run: z.array(z.string()).nullable(),
      }),
      { maxStringChars: null, maxItems: null },
    );
    assert.deepEqual(schema, {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5 },
        code: { type: 'string', pattern: '^[A-Z]+$' },
        tags: { type: 'array', minItems: 1, items: { type: 'string' } },
        note: { type: ['string', 'null'] },
        run: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      },
      required: ['name', 'code', 'tags', 'note', 'run'],
      additionalProperties: false,
    });
    const capped = grammarJsonSchema(PRD, { maxStringChars: 24, maxItems: 3 }) as { properties: Record<string, { maxLength?: number; maxItems?: number }> };
    assert.equal(capped.properties.summary!.maxLength, 24);
    assert.equal(capped.properties.goals!.maxItems, 3);
    assert.ok(JSON.stringify(grammarJsonSchema(Design, { maxStringChars: null, maxItems: null })).length > 100);
  });

  it('names the one command that installs the engine when it is found nowhere and may not be installed', async () => {
    const dir = await tempDir();
    await assert.rejects(
      loadEngine({ beside: () => import('node-llama-cpp-not-installed-here' as string) as never, dir, install: null }),
      (error: unknown) =>
        SopworksError.isInstance(error) &&
        error.code === 'NO_MODEL' &&
        /not installed/.test(error.message) &&
        error.hint === `Install it for this machine: sopworks models setup (into ${dir})`,
    );
  });

  it('loads the engine from its folder when it is not beside sopworks, installing it there first when absent', async () => {
    const dir = await tempDir();
    const missing = () => import('node-llama-cpp-not-installed-here' as string) as never;
    const installs: string[] = [];
    // What an install leaves: the real engine under the folder's node_modules (linked from the clone's).
    const install = async (into: string) => {
      installs.push(into);
      await fsp.mkdir(path.join(into, 'node_modules'), { recursive: true });
      await fsp.symlink(path.join(ROOT, 'node_modules', 'node-llama-cpp'), path.join(into, 'node_modules', 'node-llama-cpp'));
    };
    const engine = await loadEngine({ beside: missing, dir, install });
    assert.equal(typeof engine.getLlama, 'function');
    assert.deepEqual(installs, [dir]);
    assert.ok(installedIn(dir));
    // Found there the next time: not installed twice.
    await loadEngine({ beside: missing, dir, install });
    assert.equal(installs.length, 1);
  });

  it('takes an engine folder holding another version as not installed', async () => {
    const dir = await tempDir();
    await fsp.mkdir(path.join(dir, 'node_modules', 'node-llama-cpp'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'node_modules', 'node-llama-cpp', 'package.json'), JSON.stringify({ name: 'node-llama-cpp', version: '3.0.0' }));
    assert.equal(installedIn(dir), false);
    assert.equal(ENGINE_PACKAGE, `node-llama-cpp@${ENGINE_VERSION}`);
  });

  it('says the engine is broken, not missing, when one of its own modules is missing', async () => {
    const broken = () => Promise.reject(Object.assign(new Error("Cannot find package 'ipull' imported from node-llama-cpp"), { code: 'ERR_MODULE_NOT_FOUND' }));
    await assert.rejects(loadEngine({ beside: broken }), (error: unknown) => SopworksError.isInstance(error) && /could not load/.test(error.message));
  });

  it("chooses this platform's and GPU's binaries only", () => {
    const v = ENGINE_VERSION;
    assert.deepEqual(enginePackages({ platform: 'linux', arch: 'x64', gpu: 'none' }), [`node-llama-cpp@${v}`, `@node-llama-cpp/linux-x64@${v}`]);
    assert.deepEqual(enginePackages({ platform: 'linux', arch: 'x64', gpu: 'cuda' }), [
      `node-llama-cpp@${v}`,
      `@node-llama-cpp/linux-x64@${v}`,
      `@node-llama-cpp/linux-x64-cuda@${v}`,
      `@node-llama-cpp/linux-x64-cuda-ext@${v}`,
    ]);
    assert.deepEqual(enginePackages({ platform: 'linux', arch: 'x64', gpu: 'vulkan' }).slice(1), [
      `@node-llama-cpp/linux-x64@${v}`,
      `@node-llama-cpp/linux-x64-vulkan@${v}`,
    ]);
    assert.deepEqual(enginePackages({ platform: 'darwin', arch: 'arm64', gpu: 'metal' }).slice(1), [`@node-llama-cpp/mac-arm64-metal@${v}`]);
    // A GPU without binaries for the platform: the CPU build alone.
    assert.deepEqual(enginePackages({ platform: 'linux', arch: 'arm64', gpu: 'cuda' }).slice(1), [`@node-llama-cpp/linux-arm64@${v}`]);
    assert.throws(
      () => enginePackages({ platform: 'freebsd', arch: 'x64', gpu: 'none' }),
      (error: unknown) => SopworksError.isInstance(error) && /freebsd-x64/.test(error.message),
    );
  });

  it('tells the GPU from the driver files a machine has', () => {
    const has = (files: string[]) => (file: string) => files.includes(file);
    assert.equal(detectGpu('linux', has([])), 'none');
    assert.equal(detectGpu('linux', has(['/proc/driver/nvidia/version'])), 'cuda');
    assert.equal(detectGpu('linux', has(['/usr/lib/x86_64-linux-gnu/libvulkan.so.1'])), 'vulkan');
    assert.equal(detectGpu('darwin', has([])), 'metal');
  });

  it('keeps the engine in the cache folder, one folder per version, or SOPWORKS_ENGINE_DIR', () => {
    assert.equal(engineDir({ XDG_CACHE_HOME: '/c' }), path.join('/c', 'sopworks', 'engine', ENGINE_VERSION));
    assert.equal(engineDir({ SOPWORKS_ENGINE_DIR: '/e' }), '/e');
  });
});

describe('which model --llm local loads', () => {
  let dir: string;
  const env = () => ({ SOPWORKS_MODELS_DIR: dir });
  before(async () => {
    dir = await tempDir();
  });
  after(removeTempDirs);

  it('says how to pull one when the cache is empty', async () => {
    await assert.rejects(
      resolveLocalModel(null, env()),
      (error: unknown) =>
        SopworksError.isInstance(error) &&
        error.code === 'NO_MODEL' &&
        /is empty/.test(error.message) &&
        /sopworks models pull qwen2\.5-coder-7b/.test(error.hint ?? ''),
    );
  });

  it('takes a path as it is, and a name from the cache; plain local takes the newest and says so', async () => {
    assert.deepEqual(await resolveLocalModel('~/m/a.gguf', env()), { file: path.join(os.homedir(), 'm', 'a.gguf'), chosen: null });
    await fsp.writeFile(path.join(dir, 'older.gguf'), 'GGUF');
    await fsp.utimes(path.join(dir, 'older.gguf'), new Date(1_000_000), new Date(1_000_000));
    await fsp.writeFile(path.join(dir, 'newer.gguf'), 'GGUF');
    assert.deepEqual(await resolveLocalModel('older', env()), { file: path.join(dir, 'older.gguf'), chosen: null });
    const newest = await resolveLocalModel(null, env());
    assert.equal(newest.file, path.join(dir, 'newer.gguf'));
    assert.match(newest.chosen ?? '', /newer from .* \(newest of 2; choose with --llm local:<name>\)/);
  });

  it('tells a recommended model not pulled yet from an unknown name', async () => {
    await assert.rejects(
      resolveLocalModel('qwen2.5-coder-3b', env()),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'NO_MODEL' && error.hint === 'Pull it first: sopworks models pull qwen2.5-coder-3b',
    );
    await assert.rejects(
      resolveLocalModel('mistery', env()),
      (error: unknown) => SopworksError.isInstance(error) && error.code === 'USAGE' && /Cached: newer, older\./.test(error.hint ?? ''),
    );
  });
});
