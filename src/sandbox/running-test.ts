/**
 * The test that was running when a run was killed, read from what the runner printed last: node's
 * test runner (TAP "# Subtest: name", or its spec reporter's "▶ name") and pytest's verbose
 * "path::test" lines. Pure; null when the output names none.
 */
const PATTERNS: RegExp[] = [
  /^\s*# Subtest: (.+)$/gm,
  /^\s*▶ (.+)$/gm,
  /^(\S+\.py::\S+)/gm,
];

export function runningTest(output: string): string | null {
  let last: { at: number; name: string } | null = null;
  for (const pattern of PATTERNS) {
    for (const match of output.matchAll(pattern)) {
      if (!last || match.index >= last.at) last = { at: match.index, name: match[1]!.trim() };
    }
  }
  return last ? last.name.slice(0, 160) : null;
}
