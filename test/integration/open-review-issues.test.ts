/**
 * A review loop that reaches its bound leaves the last review's issues open — and they are not lost:
 * each review is told, from the SOP's own bound, how many revisions may follow it (none on the last),
 * the published PRD carries the issues, the Architect's prompt and docs/prd.md show them, and the
 * run's summary lists them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { sopworks } from '../helpers/in-process.ts';
import { DEMO } from '../helpers/paths.ts';
import { removeTempDirs, tempDir } from '../helpers/temp-dir.ts';

interface Reply {
  role: string;
  action: string;
  json?: unknown;
  note?: string;
}

const LAST_ISSUE = "R4's pattern uses `$`, which also matches before a trailing newline: say the whole value must match.";

describe('the issues a last review leaves open', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  let project: string;
  let stdout: string;
  let prompts: { action: string; text: string }[];
  before(async () => {
    const root = await tempDir('sopworks-open-issues-');
    const demo = parseYaml(await fs.readFile(DEMO, 'utf8')) as { spec: string; replies: Reply[] };
    const at = (action: string) => demo.replies.findIndex((r) => r.role === 'product-manager' && r.action === action);
    const rejecting = (issue: string): Reply => ({ role: 'product-manager', action: 'review_prd', json: { approved: false, issues: [issue] } });
    const [revised, revisedAgain] = demo.replies.filter((r) => r.role === 'product-manager' && r.action === 'revise_prd');
    // The demo's PRD review rejects once; here each of its three reviews rejects, the last with a real bug.
    const pm = [
      demo.replies[at('write_prd')]!,
      demo.replies[at('review_prd')]!,
      revised!,
      rejecting('Say what happens with an empty file.'),
      revisedAgain!,
      rejecting(LAST_ISSUE),
    ];
    const rest = demo.replies.filter((r) => r.role !== 'product-manager' && r.role !== 'client');
    const scenario = path.join(root, 'scenario.yaml');
    await fs.writeFile(scenario, stringify({ ...demo, replies: [...pm, ...rest] }));
    const out = path.join(root, 'out');
    const run = await sopworks(['run', '--llm', `scripted:${scenario}`, '--out', out, '--name', 'open', '--until', 'design'], { cwd: root });
    stdout = run.stdout + run.stderr;
    assert.match(stdout, /stopped at design \(architect\), as --until design asked/, stdout);
    project = path.join(out, 'open');
    prompts = (await fs.readFile(path.join(project, '.sopworks', 'exchanges.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; messages: { content: string }[] })
      .map((x) => ({ action: x.action, text: x.messages.at(-1)!.content }));
  });

  it("tells each review, from the SOP's bound, whether a revision can still follow it", () => {
    const reviews = prompts.filter((p) => p.action === 'review_prd').map((p) => p.text);
    assert.equal(reviews.length, 3);
    assert.match(reviews[0]!, /revised and reviewed again \(2 more revisions at most\)/);
    assert.match(reviews[1]!, /revised and reviewed again \(1 more revision at most\)/);
    assert.match(reviews[2]!, /This is the last review of this PRD: no revision follows it\..*the Architect, who designs from it/);
    assert.doesNotMatch(reviews[2]!, /reviewed again/);
  });

  it("shows the Architect the PRD's open issues, and commits them in docs/prd.md", async () => {
    const design = prompts.find((p) => p.action === 'write_design')!.text;
    assert.match(design, /## Open review issues\n\nThe PRD's last review left these open/);
    assert.ok(design.includes(LAST_ISSUE), 'the last review’s issue reaches the Architect');
    const prd = await fs.readFile(path.join(project, 'docs', 'prd.md'), 'utf8');
    assert.ok(prd.includes(LAST_ISSUE), 'docs/prd.md keeps it for the person');
    const board = (await fs.readFile(path.join(project, '.sopworks', 'board.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: { review?: unknown } });
    assert.deepEqual(board.find((m) => m.type === 'PRD')!.payload.review, { approved: false, issues: [LAST_ISSUE] });
  });

  it("lists them in the run's summary", () => {
    assert.match(stdout, /Open issues +1 left by a last review, its revisions spent \(PRD 1\): PRD: "R4's pattern/);
  });
});
