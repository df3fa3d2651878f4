/**
 * `sopworks models pull|list|rm` against a local HTTP server that serves the tiny test model (never an
 * external host): a download cut off mid-way keeps its part and resumes with an HTTP Range request; the
 * file is checked (size, GGUF magic, sha256) before it lands in the cache; bad input exits 2.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sopworks } from '../helpers/in-process.ts';
import { ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const MODEL = path.join(ROOT, 'test', 'fixtures', 'models', 'llama-2-tiny-random.gguf');
const MODEL_SHA256 = '81f226c62d28ed4a1a9b9fa080fcd9f0cc40e0f9d5680036583ff98fbcd035cb';

describe('sopworks models pull|list|rm (local HTTP server)', function () {
  this.timeout(60_000);
  let bytes: Buffer;
  let server: http.Server;
  let base: string;
  /** The Range header of every request for the model, in order ("" when none). */
  const ranges: string[] = [];
  /** When set, the next response for the model is cut off after this many bytes. */
  let cutAfter: number | null = null;

  before(async () => {
    bytes = await fs.readFile(MODEL);
    server = http.createServer((req, res) => {
      if (req.url === '/not-a-model.gguf') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '30' }).end('<html>please log in</html>    ');
        return;
      }
      if (req.url !== '/tiny.gguf') {
        res.writeHead(404).end();
        return;
      }
      const range = req.headers.range ?? '';
      ranges.push(range);
      const start = Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0);
      const body = bytes.subarray(start);
      res.writeHead(start > 0 ? 206 : 200, {
        'content-length': String(body.length),
        ...(start > 0 ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
      });
      if (cutAfter !== null) {
        const cut = cutAfter;
        cutAfter = null;
        res.write(body.subarray(0, cut), () => res.destroy());
        return;
      }
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await removeTempDirs();
  });
  beforeEach(() => {
    ranges.length = 0;
  });

  it('resumes a download cut off mid-way, checks it, lists it and removes it', async () => {
    const cwd = await tempDir();
    const cache = path.join(cwd, 'models');
    const env = { SOPWORKS_MODELS_DIR: cache };

    cutAfter = 700_000;
    const first = await sopworks(['models', 'pull', `${base}/tiny.gguf`, '--sha256', MODEL_SHA256], { cwd, env });
    assert.equal(first.code, 2, first.stderr);
    assert.match(first.stderr, /stopped at \d+ of 1750560 bytes/);
    assert.match(first.stderr, /Run the same command again: it resumes where it stopped/);
    const part = await fs.stat(path.join(cache, 'tiny.gguf.part'));
    assert.ok(part.size > 100_000 && part.size < bytes.length, `the part keeps what arrived (${part.size} bytes)`);
    await assert.rejects(fs.stat(path.join(cache, 'tiny.gguf')), "nothing incomplete under the model's name");

    const listedPartial = await sopworks(['models', 'list'], { cwd, env });
    assert.match(listedPartial.stdout, /tiny\s+partial download/);

    const second = await sopworks(['models', 'pull', `${base}/tiny.gguf`, '--sha256', MODEL_SHA256], { cwd, env });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(ranges, ['', `bytes=${part.size}-`], 'the second request asked only for the rest');
    assert.match(second.stderr, /resumed from/);
    assert.match(second.stderr, /100% 2 MB of 2 MB/, 'progress, a line per tenth without a terminal');
    assert.match(second.stdout, new RegExp(`Pulled tiny: .*sha256 ${MODEL_SHA256}`));
    assert.match(second.stdout, /sopworks run --llm local:tiny/);
    const landed = await fs.readFile(path.join(cache, 'tiny.gguf'));
    assert.equal(createHash('sha256').update(landed).digest('hex'), MODEL_SHA256);
    await assert.rejects(fs.stat(path.join(cache, 'tiny.gguf.part')));

    const again = await sopworks(['models', 'pull', `${base}/tiny.gguf`], { cwd, env });
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already in the cache/);
    assert.equal(ranges.length, 2, 'a model already pulled is not downloaded again');

    const listed = await sopworks(['models', 'list'], { cwd, env });
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, new RegExp(`tiny\\s+2 MB\\s+from ${base}/tiny.gguf`));
    assert.match(listed.stdout, /qwen2\.5-coder-7b\s+4\.7 GB, needs ~6\.0 GB of memory/);

    const removed = await sopworks(['models', 'rm', 'tiny'], { cwd, env });
    assert.equal(removed.code, 0);
    assert.deepEqual(await fs.readdir(cache), []);
  });

  it('refuses a wrong sha256, a file that is not GGUF, an unknown name and a missing model (exit 2), keeping nothing bad', async () => {
    const cwd = await tempDir();
    const cache = path.join(cwd, 'models');
    const env = { SOPWORKS_MODELS_DIR: cache };

    const wrongSha = await sopworks(['models', 'pull', `${base}/tiny.gguf`, '--sha256', '0'.repeat(64)], { cwd, env });
    assert.equal(wrongSha.code, 2);
    assert.match(wrongSha.stderr, new RegExp(`has sha256 ${MODEL_SHA256}, not the expected 0{64}; it was removed`));

    const html = await sopworks(['models', 'pull', `${base}/not-a-model.gguf`], { cwd, env });
    assert.equal(html.code, 2);
    assert.match(html.stderr, /did not give a GGUF model file/);

    const missing = await sopworks(['models', 'pull', `${base}/nothing-here.gguf`], { cwd, env });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /answered 404/);
    assert.deepEqual(await fs.readdir(cache), [], 'nothing is kept from any of them');

    const unknown = await sopworks(['models', 'pull', 'qwen-does-not-exist'], { cwd, env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown model "qwen-does-not-exist"/);
    assert.match(unknown.stderr, /qwen2\.5-coder-7b/);

    const rm = await sopworks(['models', 'rm', 'nothing'], { cwd, env });
    assert.equal(rm.code, 2);
    assert.match(rm.stderr, /No model "nothing" in the model cache/);
    assert.deepEqual(
      ranges.filter((r) => r !== ''),
      [],
      'no resumed request: each refused download left no part',
    );
  });
});
