/**
 * After the first Ctrl-C no new step starts: the steps in flight finish ("✓"), and no role announces
 * another ("…") — whether the Ctrl-C comes while one role works alone (the Product Manager's first
 * step) or while an Engineer writes files. The one exception is documented: a file under way is
 * finished (its review and revision), so its steps go on — but no other file's, and no role's own.
 * The run resumes to the demo's tree.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { demoTree } from '../helpers/demo-tree.ts';
import { BIN, DEMO } from '../helpers/paths.ts';
import { cleanEnv, runCli } from '../helpers/run-cli.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

const LATENCY = { SOPWORKS_SCRIPTED_LATENCY_MS: '40' };

/** Runs the demo, sends SIGINT once `trigger` shows in its output, and gives the exit code and output. */
function interruptAt(out: string, trigger: RegExp): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', '--llm', `scripted:${DEMO}`, '--out', out], {
      cwd: out,
      env: cleanEnv(LATENCY),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!sent && trigger.test(stdout)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

const announced = (text: string): string[] => text.split('\n').filter((line) => / … /.test(line));
/** The file a step is about ("engineer … review_file src/count.js"), if any. */
const fileOf = (line: string): string | undefined => / … \S+ (\S+)$/.exec(line.trim())?.[1];

/** The steps announced after the notice of the first Ctrl-C, except those of the files under way then. */
const announcedAfterStop = (stdout: string): string[] => {
  const at = stdout.indexOf('Stopping after the steps in flight');
  assert.ok(at >= 0, `the first Ctrl-C was noticed:\n${stdout}`);
  const underWay = new Set(announced(stdout.slice(0, at)).map(fileOf).filter(Boolean));
  return announced(stdout.slice(at)).filter((line) => !underWay.has(fileOf(line)));
};

describe('no step is announced after the first Ctrl-C', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('while one role works alone, and while an Engineer writes files: the steps in flight finish, none starts, and the run resumes', async () => {
    const [alone, several] = await Promise.all(
      [/product-manager +… write_prd/, /engineer +… write_file src\/count\.js/].map(async (trigger) => {
        const out = await tempDir('sopworks-ctrl-c-');
        return { out, trigger, ...(await interruptAt(out, trigger)) };
      }),
    );
    for (const run of [alone!, several!]) {
      assert.equal(run.code, 130, run.stdout);
      assert.deepEqual(announcedAfterStop(run.stdout), [], `${run.trigger}: nothing new announced after Ctrl-C`);
    }
    // The step in flight when Ctrl-C came (write_prd, or a later one on a slow machine) was finished, not dropped.
    const at = alone!.stdout.indexOf('Stopping after');
    const inFlight = /product-manager +… (\w+)/.exec(announced(alone!.stdout.slice(0, at)).at(-1) ?? '')?.[1];
    assert.ok(inFlight, alone!.stdout);
    assert.match(alone!.stdout.slice(at), new RegExp(`product-manager +✓ ${inFlight}\\b`));
    const project = path.join(alone!.out, 'wordfreq');
    const resumed = await runCli(['resume', project], { cwd: alone!.out });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: project, encoding: 'utf8' }).trim(), await demoTree());
  });
});
