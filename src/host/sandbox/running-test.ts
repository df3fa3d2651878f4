/**
 * Which test a killed run was in, read from what the runner printed last. Pure.
 * - node --test (TAP): "# Subtest: name" opens a test and "ok N - name" / "not ok N - name" closes it;
 *   Node 20 prints a test's lines once it ends, so a test that never ends is not named — the last one
 *   that ended is, which says where the run was.
 * - pytest -v: "path::test" starts a line and its result ends it; a line without a result is running.
 */
export interface TestPosition {
  /** The test that was running, when the output names it. */
  running: string | null;
  /** The last test that ended, when no running one is named. */
  lastFinished: string | null;
}

export function runningTest(output: string): TestPosition {
  let opened: { at: number; name: string } | null = null;
  let closed: { at: number; name: string } | null = null;
  for (const m of output.matchAll(/^\s*# Subtest: (.+)$/gm)) opened = { at: m.index, name: m[1]!.trim() };
  for (const m of output.matchAll(/^\s*(?:not )?ok \d+ - (.+?)(?: # .*)?$/gm)) closed = { at: m.index, name: m[1]!.trim() };
  for (const m of output.matchAll(/^(\S+\.py::\S+)(.*)$/gm)) {
    const ended = /\b(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/.test(m[2] ?? '');
    if (ended) closed = { at: m.index, name: m[1]! };
    else opened = { at: m.index, name: m[1]! };
  }
  const clip = (name: string) => name.slice(0, 160);
  if (opened && (!closed || opened.at > closed.at)) return { running: clip(opened.name), lastFinished: null };
  return { running: null, lastFinished: closed ? clip(closed.name) : null };
}
