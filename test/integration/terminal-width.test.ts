/**
 * A terminal view that fits (issue 38): in a real pseudo-terminal (`script`) of 60 and of 120 columns, a
 * run's progress lines and its end summary are cut to the width with "…" — never wrapped mid-word — the
 * summary keeps the outcome on a 24-line screen, and a live status line (the run's time, tokens, cost,
 * the step under way) is drawn within the width and gone at the end; piped, the same lines come whole,
 * and no status line.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import stringWidth from 'string-width';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

/** The demo run in a pseudo-terminal of `columns` × 24 (or `args` instead of its run); what the terminal was sent, as lines. */
function demoAt(
  columns: number,
  out: string,
  args = ['run', '--llm', `scripted:${DEMO}`, '--out', out],
): Promise<{ code: number | null; lines: string[]; screen: string }> {
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;
  const command = `stty cols ${columns} rows 24; ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: out, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      // The status line is drawn and cleared with \r and an erase: only what stayed on screen is kept.
      resolve({
        code,
        screen,
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
    it(`cuts every progress line and the summary to ${columns} columns with "…", with a live status line while the run goes on`, async () => {
      const out = await tempDir();
      const { code, lines, screen } = await demoAt(columns, out);
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
      assert.ok(summary.length <= 10, `the summary and the next command take ${summary.length} lines`);
      for (const line of summary) assert.ok(stringWidth(line) <= columns, `${stringWidth(line)} columns: ${line}`);
      assert.match(summary.find((l) => l.startsWith('Usage'))!, /^Usage\s+[\d,]+ tokens, cost unknown, [\d.]+s/, 'tokens, cost and time before a cut');
      assert.match(summary.find((l) => l.startsWith('Review'))!, /^Review\s+sopworks review --usage wordfreq\b/, 'the command before a cut');
      // Each status drawn: what stood between an erase and the next one, or the line it made way for.
      const drawn = screen
        .split('\r\x1b[2K')
        .slice(1)
        .map((part) => part.split(/\r?\n/)[0]!)
        .filter((part) => part.startsWith('⋯'));
      // How often is the run's speed (it is redrawn on a timer too): drawn at all, each drawing checked below.
      assert.ok(drawn.length > 0, `the status line was drawn while the run went on (${drawn.length} times)`);
      for (const status of drawn) {
        // Before the first reply, no cost (the model's price is known from it); after it, unknown: the script has none.
        assert.match(status, /^⋯ \d+:\d\d · (0 tokens|[\d,]+ tokens · cost unknown) · /, status);
        assert.ok(stringWidth(status) < columns, `${stringWidth(status)} columns: ${status}`);
      }
      assert.ok(
        drawn.some((status) => / · engineer write_file src\/\S+ \d+:\d\d/.test(status) || (columns === 60 && status.endsWith('…'))),
        'the step under way',
      );
      assert.ok(!lines.slice(end).some((l) => l.startsWith('⋯')), 'gone once the run has ended');
      assert.match(summary.at(-1)!, /^Next: cd \S*wordfreq && git log --stat$/);
    });
  }

  it("counts the whole run's tokens and time in a resumed run's status line, its earlier process's included", async () => {
    const out = await tempDir();
    const first = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out, '--until', 'design'], { cwd: out });
    assert.equal(first.code, 5, first.stdout + first.stderr);
    const record = JSON.parse(await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'run.json'), 'utf8'));
    const earlier = record.usage.total.promptTokens + record.usage.total.completionTokens;
    assert.ok(earlier > 0 && record.wallMs > 0, 'the first process used tokens and took time');
    const { code, lines, screen } = await demoAt(120, out, ['resume', path.join(out, 'wordfreq')]);
    assert.equal(code, 0, lines.join('\n'));
    // Every drawing, the first one too (drawn after a line, with nothing to erase before it).
    const drawn = screen.split(/\r\x1b\[2K|\r?\n/).filter((part) => part.startsWith('⋯'));
    assert.ok(drawn.length > 0, 'the status line was drawn');
    const totals = drawn.map((status) => {
      const [, minutes, seconds, tokens] = /^⋯ (\d+):(\d\d) · ([\d,]+) tokens/.exec(status)!;
      return { ms: (Number(minutes) * 60 + Number(seconds)) * 1000, tokens: Number(tokens!.replaceAll(',', '')) };
    });
    // Drawn first as the first step begins, before this process has used anything: the earlier process's tokens exactly.
    assert.equal(totals[0]!.tokens, earlier, `the first status: ${drawn[0]}`);
    assert.ok(totals[0]!.ms >= Math.floor(record.wallMs / 1000) * 1000, `its time counts the earlier ${record.wallMs} ms: ${drawn[0]}`);
    const after = JSON.parse(await fs.readFile(path.join(out, 'wordfreq', '.sopworks', 'run.json'), 'utf8'));
    const whole = after.usage.total.promptTokens + after.usage.total.completionTokens;
    assert.ok(
      totals.every((t) => t.tokens >= earlier && t.tokens <= whole),
      `each status between ${earlier} and the whole run's ${whole}`,
    );
    // The summary's usage is the whole run's too: its tokens, and its time with the first process's.
    const usage = lines.find((l) => l.startsWith('Usage'))!;
    const [, tokens, seconds] = /^Usage\s+([\d,]+) tokens, cost unknown, ([\d.]+)s/.exec(usage) ?? [];
    assert.equal(Number(tokens?.replaceAll(',', '')), whole, usage);
    // run.json's time is written a moment before the summary's is taken: at least it, never only this process's.
    assert.ok(Number(seconds) * 1000 >= after.wallMs - 100, `${usage}: run.json says ${after.wallMs} ms, the first process ${record.wallMs}`);
  });

  it('leaves the lines whole in a pipe', async () => {
    const out = await tempDir();
    const piped = await runCli(['run', '--llm', `scripted:${DEMO}`, '--out', out], { cwd: out, env: { COLUMNS: '60' } });
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stdout, /…$/m, 'nothing cut');
    assert.doesNotMatch(piped.stdout, /⋯|\r|\x1b/, 'plain lines: no status line, no erase');
    assert.ok(
      piped.stdout.split('\n').some((l) => l.length > 60),
      'lines longer than 60 columns kept whole',
    );
  });
});
