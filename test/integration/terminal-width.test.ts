/**
 * A terminal view that fits (issue 38): in a real pseudo-terminal (`script`) of 60 and of 120 columns, a
 * run's progress lines are cut to the width with "…" — never wrapped mid-word — and its end summary keeps
 * the outcome on a 24-line screen; piped, the same lines come whole.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import stringWidth from 'string-width';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** The demo run in a pseudo-terminal of `columns` × 24; what the terminal was sent, as lines. */
function demoAt(columns: number, out: string): Promise<{ code: number | null; lines: string[] }> {
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  const command = `stty cols ${columns} rows 24; ${[process.execPath, BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: out, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      // The status line is drawn and cleared with \r and an erase: only what stayed on screen is kept.
      resolve({
        code,
        lines: screen.split(/\r?\n/).map((l) =>
          l
            .split('\r')
            .at(-1)!
            .replace(/\x1b\[2K/g, ''),
        ),
      }),
    ),
  );
}

describe('a terminal view that fits its width', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  for (const columns of [60, 120]) {
    it(`cuts every progress line to ${columns} columns with "…", and ends with a short summary`, async () => {
      const out = await tempDir();
      const { code, lines } = await demoAt(columns, out);
      assert.equal(code, 0, lines.join('\n'));
      const end = lines.findIndex((l) => l.startsWith('Outcome'));
      assert.ok(end > 10, 'the run printed its progress, then its outcome');
      const progress = lines.slice(0, end).filter((l) => l.trim() !== '');
      for (const line of progress) assert.ok(stringWidth(line) <= columns, `${stringWidth(line)} columns: ${line}`);
      if (columns === 60)
        assert.ok(
          progress.some((l) => l.endsWith('…')),
          'a long line was cut, not wrapped',
        );
      assert.match(lines[end]!, /^Outcome\s+done — all tests pass$/);
      const summary = lines.slice(end).filter((l) => l.trim() !== '');
      assert.ok(summary.length <= 12, `the summary and the next command take ${summary.length} lines`);
      // As the terminal shows them, a line longer than the width on rows of its own: the outcome stays on screen.
      const rows = summary.reduce((n, l) => n + Math.max(1, Math.ceil(stringWidth(l) / columns)), 0);
      assert.ok(rows <= 20, `${rows} rows of ${columns} columns`);
      assert.match(summary.at(-1)!, /^Next: cd \S*wordfreq && git log --stat$/);
    });
  }

  it('leaves the lines whole in a pipe', async () => {
    const out = await tempDir();
    const piped = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out, env: { COLUMNS: '60' } });
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stdout, /…$/m, 'nothing cut');
    assert.ok(
      piped.stdout.split('\n').some((l) => l.length > 60),
      'lines longer than 60 columns kept whole',
    );
  });
});
