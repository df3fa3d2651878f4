/**
 * Bad input at the command line: each gets a clear message, a non-zero exit code, and loses nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { sopworks } from '../helpers/in-process.ts';
import { DEMO, ROOT } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const exec = promisify(execFile);

describe('sopworks run with bad input', function () {
  this.timeout(60_000);
  let cwd: string;
  beforeEach(async () => {
    cwd = await tempDir();
  });
  after(removeTempDirs);

  it('refuses an empty or whitespace spec (exit 2) and creates nothing', async () => {
    const unreachable = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const viaOpenai = await sopworks(['run', '   ', '--out', cwd], { cwd, env: unreachable });
    assert.equal(viaOpenai.code, 2);
    assert.match(viaOpenai.stderr, /The spec is empty/, 'the spec is checked before the endpoint');
    assert.match(viaOpenai.stderr, /sopworks run "a CLI/);

    const scenario = path.join(cwd, 'no-spec.yaml');
    await fs.writeFile(scenario, stringify({ replies: [{ role: 'product-manager', action: 'write_prd', reply: '{}' }] }));
    const viaScenario = await sopworks(['run', '  \t ', '--llm', `scripted:${scenario}`, '--out', cwd], { cwd });
    assert.equal(viaScenario.code, 2);
    assert.match(viaScenario.stderr, /The spec is empty/);
    assert.deepEqual(await fs.readdir(cwd), ['no-spec.yaml']);
  });

  it('says how to configure a model, or run the demo, when none is configured', async () => {
    const result = await sopworks(['run', 'a todo app'], { cwd });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /No model is configured/);
    assert.match(result.stderr, /OPENAI_API_KEY/);
    assert.match(result.stderr, /OPENAI_BASE_URL/);
    assert.match(result.stderr, /sopworks init/);
    assert.match(result.stderr, /--llm local/);
    assert.match(result.stderr, /--llm scripted:/);
  });

  it('names an unreachable endpoint and writes nothing', async () => {
    const result = await sopworks(['run', 'a todo app', '--out', cwd], { cwd, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Cannot reach the model endpoint http:\/\/127\.0\.0\.1:9\/v1/);
    assert.match(result.stderr, /Nothing was written/);
    assert.deepEqual(await fs.readdir(cwd), []);
  });

  it('names a missing or malformed scenario file', async () => {
    const missing = await sopworks(['run', '--llm', 'scripted:nope.yaml'], { cwd });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read scenario file nope\.yaml: ENOENT/);

    await fs.writeFile(path.join(cwd, 'bad.yaml'), 'replies:\n  - role: qa\n    action: [unclosed\n');
    const malformed = await sopworks(['run', 'x', '--llm', 'scripted:bad.yaml'], { cwd });
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /Scenario file bad\.yaml is not valid YAML/);

    await fs.writeFile(path.join(cwd, 'wrong.yaml'), stringify({ replies: [{ role: 'qa', action: 'x', json: {}, code: 'y' }] }));
    const wrong = await sopworks(['run', 'x', '--llm', 'scripted:wrong.yaml'], { cwd });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /replies\.0: give exactly one of reply, json or code/);
  });

  it('fails a run whose scenario has no reply left, naming the call, and keeps what was made', async () => {
    const scenario = parse(await fs.readFile(DEMO, 'utf8')) as { replies: { role: string; action: string; key?: string }[] };
    const cut = scenario.replies.findIndex((r) => r.action === 'write_file' && r.key === 'src/count.js');
    scenario.replies = scenario.replies.slice(0, cut);
    await fs.writeFile(path.join(cwd, 'short.yaml'), stringify(scenario));
    const result = await sopworks(['run', '--llm', 'scripted:short.yaml', '--out', cwd], { cwd });
    assert.equal(result.code, 1);
    // Files without a dependency between them are written concurrently: whichever asks first names itself.
    // The failure names the file and its own step, not only the Engineer's eachFile state.
    assert.match(
      result.stdout,
      /Outcome\s+failed — engineer failed in step "\w+": src\/(count|files|format)\.js, step "\w+": The scenario has no reply left for \{role: engineer, action: write_file, key: src\/\1\.js\}/,
    );
    const { stdout } = await exec('git', ['log', '--format=%s'], { cwd: path.join(cwd, 'wordfreq') });
    assert.match(stdout, /docs: task graph of 7 files/, 'what was made before the failure is committed');

    // With the missing replies restored, resume finishes the run.
    const resumed = await sopworks(['resume', path.join(cwd, 'wordfreq'), '--llm', `scripted:${DEMO}`], { cwd });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /Outcome\s+done/);
  });

  it('refuses to overwrite an existing project unless --force, and touches nothing', async () => {
    const project = path.join(cwd, 'wordfreq');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'precious.txt'), 'keep me');
    const refused = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', cwd], { cwd });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /already exists; nothing was changed/);
    assert.match(refused.stderr, /--force/);
    assert.equal(await fs.readFile(path.join(project, 'precious.txt'), 'utf8'), 'keep me');

    const forced = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', cwd, '--force'], { cwd });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /Replacing the existing project .*wordfreq \(--force\)/);
  });

  it('refuses an output folder it cannot write', async () => {
    await fs.writeFile(path.join(cwd, 'a-file'), '');
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', path.join(cwd, 'a-file', 'sub')], { cwd });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Cannot write to the output folder .*a-file\/sub \((ENOTDIR|EEXIST)\)/);
    assert.match(result.stderr, /--out/);
  });

  it('refuses an invalid project name and an unknown --llm', async () => {
    const name = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--name', '../evil'], { cwd });
    assert.equal(name.code, 2);
    assert.match(name.stderr, /Invalid project name "\.\.\/evil"/);
    const llm = await sopworks(['run', 'x', '--llm', 'gpt5'], { cwd });
    assert.equal(llm.code, 2);
    assert.match(llm.stderr, /Unknown --llm "gpt5"/);
  });

  it('refuses a number of Engineers or a concurrency that is not a whole number in range, and creates nothing', async () => {
    for (const [flag, value, message] of [
      ['--engineers', '0', /--engineers: must be a whole number from 1 to 16, got "0"/],
      ['--engineers', '17', /--engineers: must be a whole number from 1 to 16, got "17"/],
      ['--engineers', '2.5', /--engineers: must be a whole number from 1 to 16, got "2.5"/],
      ['--concurrency', 'many', /--concurrency: must be files at once greater than 0, got "many"/],
    ] as const) {
      const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, flag, value, '--out', path.join(cwd, 'never')], { cwd });
      assert.equal(result.code, 2, `${flag} ${value}`);
      assert.match(result.stderr, message);
    }
    await assert.rejects(fs.access(path.join(cwd, 'never')));
  });

  it('refuses a package registry that is not a URL (exit 2), and creates nothing', async () => {
    const result = await sopworks(['run', '--llm', `scripted:${DEMO}`, '--out', path.join(cwd, 'never')], {
      cwd,
      env: { SOPWORKS_PIP_INDEX_URL: 'pypi.internal' },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /SOPWORKS_PIP_INDEX_URL is not an http\(s\) URL: "pypi\.internal"/);
    await assert.rejects(fs.access(path.join(cwd, 'never')));
  });
});

describe('npm run demo', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('passes extra flags through to sopworks run', async () => {
    const out = await tempDir();
    const { stdout } = await exec('npm', ['run', '--silent', 'demo', '--', '--out', out, '--name', 'p'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    assert.match(stdout, /Outcome\s+done/);
    await fs.access(path.join(out, 'p', 'src', 'cli.js'));
  });
});
