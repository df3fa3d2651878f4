/**
 * Red team, end to end: one `sopworks change`, run at a terminal (a pty), on a repository that tries
 * everything at once — a filter and a diff driver named by its attributes and defined in its config,
 * an LFS-like filter defined in the user's own global config and selected by the repository's
 * attributes, fsmonitor, a hook, a file whose name holds a newline — with a model whose change request
 * a signed HEAD commit with `log.showSignature` on and an x509 verifier of its own, and
 * title is a terminal attack: it sets the window title, clears the screen, returns the carriage to
 * overwrite the line, forges a green "All tests passed" on a line of its own, sends a C1 CSI and a
 * bidirectional override. Afterwards: nothing the repository named ran (a marker absent), the run is
 * done, the bytes the terminal received hold no control but sopworks' own colours and line breaks,
 * no line is forged, the name with a newline was quoted in the prompt, the tampering was named,
 * `review` through a pipe prints no escape at all, and the workbench (`serve`) answering for the run and
 * for a commit's diff runs nothing either.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { startReviewServer } from '../../src/apps/review/index.ts';
import { changeSetUp, git } from '../helpers/change-repo.ts';
import { ROOT } from '../helpers/paths.ts';
import { runCliInPty, shownLines, terminalControls } from '../helpers/pty.ts';
import { type CliResult, cleanEnv, runCli } from '../helpers/run-cli.ts';
import { signedCommit } from '../helpers/signed-commit.ts';
import { requireSystem, SCRIPT } from '../helpers/system-requirements.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const ATTACKS = {
  windowTitle: '\x1b]0;pwned by the model\x07',
  clearScreen: '\x1b[2J\x1b[H',
  overwrite: '\rOutcome   done',
  forgedLine: '\n\x1b[32mAll tests passed\x1b[0m',
  c1: '\u009b2J',
  bidi: '\u202eevil',
};
const TITLE = `Greetings in French${Object.values(ATTACKS).join('')}`;
const NEWLINE_NAME = 'notes\nFAKE.md';

describe('red team: `change` at a terminal, on a repository and with a model that both attack', function () {
  this.timeout(180_000);
  let bytes: Buffer;
  let code: number | null;
  let marker: string;
  let worktree: string;
  let home: string;
  let review: CliResult;
  let served: number[] = [];

  before(async function () {
    requireSystem(this, SCRIPT);
    const setUp = await changeSetUp(
      (replies) => {
        const request = replies[0]!.json as { title: string };
        request.title = TITLE;
        return replies;
      },
      { extra: { '.gitattributes': '*.js filter=evil diff=evil\n*.bin filter=lfs\n', 'data.bin': 'payload\n', [NEWLINE_NAME]: 'a name that forges a line\n' } },
    );
    worktree = setUp.worktree;
    marker = path.join(setUp.dir, 'MARKER');
    const evil = (what: string) => `sh -c 'echo ${what} >> ${marker}; cat'`;
    git(setUp.repo, 'config', 'filter.evil.smudge', evil('smudge'));
    git(setUp.repo, 'config', 'filter.evil.clean', evil('clean'));
    git(setUp.repo, 'config', 'diff.evil.textconv', evil('textconv'));
    git(setUp.repo, 'config', 'core.fsmonitor', evil('fsmonitor'));
    // A signed commit on top: a plain `git log` there runs the repository's own verifier.
    await signedCommit(setUp.repo, 'x509', 'a signed commit');
    git(setUp.repo, 'config', 'log.showSignature', 'true');
    git(setUp.repo, 'config', 'gpg.x509.program', `${setUp.dir}/verifier`);
    await fs.writeFile(path.join(setUp.dir, 'verifier'), `#!/bin/sh\necho verifier >> ${marker}\ncat > /dev/null\n`, { mode: 0o755 });
    await fs.writeFile(path.join(setUp.repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\necho hook >> ${marker}\n`, { mode: 0o755 });
    // The user's own global config, as Git LFS installs it: the repository's attributes choose when it runs.
    home = await tempDir('sopworks-home-');
    await fs.writeFile(
      path.join(home, '.gitconfig'),
      `[filter "lfs"]\n\tprocess = "sh -c 'echo lfs >> ${marker}; exit 1'"\n\tsmudge = "sh -c 'echo lfs-smudge >> ${marker}; cat'"\n\trequired = true\n`,
    );
    const env = cleanEnv({ HOME: home, COLUMNS: '160' });
    delete env.NO_COLOR;
    ({ bytes, code } = await runCliInPty(['change', setUp.repo, '--llm', `scripted:${setUp.scenarioFile}`, '--out', path.join(setUp.dir, 'out')], {
      cwd: ROOT,
      env,
    }));
    review = await runCli(['review', worktree], { cwd: ROOT });
    const server = await startReviewServer({ dir: worktree, port: 0, host: '127.0.0.1' });
    try {
      const listed = await (await fetch(new URL('/api/runs', server.url))).text();
      const runs = JSON.parse(listed) as { runs?: { name: string }[] };
      assert.ok(runs.runs?.[0], listed);
      const run = runs.runs![0]!.name;
      served = [(await fetch(new URL(`/api/runs/${encodeURIComponent(run)}`, server.url))).status];
      const head = git(worktree, 'rev-parse', 'HEAD').trim();
      for (const hash of [head, git(setUp.repo, 'rev-parse', 'HEAD').trim()])
        served.push((await fetch(new URL(`/api/runs/${encodeURIComponent(run)}/commits/${hash}`, server.url))).status);
    } finally {
      await server.close();
    }
  });
  after(removeTempDirs);

  it('ran the change to done, and nothing the repository or its attributes named ran', async () => {
    assert.equal(code, 0, bytes.toString('utf8').slice(-3000));
    assert.equal(await fs.readFile(marker, 'utf8').catch(() => null), null);
    assert.equal(await fs.readFile(path.join(worktree, 'data.bin'), 'utf8'), 'payload\n', 'the LFS-selected file is checked out as stored');
  });

  it('the workbench answered for the run and for the signed base commit without running its verifier', async () => {
    assert.deepEqual(served, [200, 200, 200]);
    assert.equal(await fs.readFile(marker, 'utf8').catch(() => null), null, 'the verifier never ran');
  });

  it('named what the repository would have run, before anything was written', () => {
    const text = bytes.toString('utf8');
    for (const named of [
      /filter\.evil\.smudge/,
      /diff\.evil\.textconv/,
      /core\.fsmonitor/,
      /a hook was planted: \.git\/hooks\/post-checkout/,
      /names the filter driver "lfs"/,
      /log\.showsignature = true/,
      /gpg\.x509\.program = .*verifier/,
    ])
      assert.match(text, named);
  });

  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`the title's ${name} reached the terminal only as visible stand-ins`, () => {
      assert.deepEqual(terminalControls(bytes), [], 'no control but colours and line breaks, in anything `change` printed');
      if (name === 'forgedLine') {
        assert.ok(!shownLines(bytes).some((line) => /^\s*All tests passed/.test(line)), 'no forged line at the terminal');
        assert.ok(!review.stdout.split('\n').some((line) => /^\s*All tests passed/.test(line)), 'no forged line in review');
      }
      // In review's timeline, as a person reads it: each control a stand-in (C0 its control picture, C1
      // and bidi �); line breaks are white space there, and white space runs are one.
      const inert = [...attack]
        .map((c) => (c === '\n' || c === '\r' ? ' ' : c < ' ' ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : /[\u0080-\u009f\u202e]/.test(c) ? '\ufffd' : c))
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
      const requestLine = review.stdout.split('\n').find((line) => line.includes('ChangeRequest'));
      assert.ok(requestLine?.replace(/\s+/g, ' ').includes(inert), `shown inert (${inert}) in review's timeline: ${requestLine}`);
    });
  }

  it('quoted the file name with a newline in the map the Architect read, so it forged no line', async () => {
    const exchanges = (await fs.readFile(path.join(worktree, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] });
    const prompt = exchanges
      .find((e) => e.action === 'choose_files')!
      .messages.map((m) => m.content)
      .join('\n');
    assert.ok(prompt.includes(JSON.stringify(NEWLINE_NAME)), 'the name is shown quoted');
    assert.ok(!prompt.split('\n').includes('FAKE.md'), 'FAKE.md is no line of its own');
  });

  it('`review` through a pipe prints the run with no escape at all', () => {
    assert.equal(review.code, 0, review.stderr);
    assert.doesNotMatch(review.stdout + review.stderr, /[\x1b\u0080-\u009f\u202e\r]/);
    assert.match(review.stdout, /ChangeRequest\s+Greetings in French␛\]0;pwned by the model␇/);
    // The commit's subject was made one printable line before it was committed (src/ground/text/one-line.ts).
    assert.match(review.stdout, /test: Greetings in French;pwned by the model/);
  });
});
