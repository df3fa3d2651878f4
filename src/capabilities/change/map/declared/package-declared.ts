/**
 * The test commands a package.json declares: its `test` script, run as the package manager runs it
 * (`npm test`), and — when a script chains more than the tests (`pnpm lint && pnpm test:types && pnpm
 * vitest run`) — the test runner it calls, as a runner of the repository's installed binaries
 * (`npx vitest run`), which needs neither the other steps' tools nor the package manager the script
 * names. Scripts named `test:…` that call a runner are offered too. Pure.
 */
import { z } from 'zod';
import type { DeclaredCommand } from './declared-command.ts';
import { runsTests, withoutPackageRunner } from './runnable.ts';
import { commandChain } from './shell-words.ts';

const PackageJson = z.object({ scripts: z.record(z.string(), z.string()).optional() }).passthrough();
const NO_TEST_SCRIPT = /no test specified/;

/** The scripts of a package.json text, or null when it has none it can read. */
/** The package managers other than npm a script calls (`pnpm lint && …`): running it needs them. */
function managersCalled(script: string): string[] {
  return [...new Set([...script.matchAll(/(?:^|[\s;&|(])(pnpm|yarn|bun)\s/g)].map((m) => m[1]!))];
}

export function scriptsOf(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    return PackageJson.safeParse(JSON.parse(text)).data?.scripts ?? null;
  } catch {
    return null;
  }
}

export function packageCommands(scripts: Readonly<Record<string, string>>, where = 'package.json'): DeclaredCommand[] {
  const found: DeclaredCommand[] = [];
  const test = scripts.test;
  const runners = (name: string, script: string) =>
    (commandChain(script) ?? []).flatMap((words) => {
      const inner = withoutPackageRunner(words);
      if (!inner || !runsTests(inner)) return [];
      const argv = inner[0] === 'node' ? inner : ['npx', ...inner];
      return [{ argv, source: `the test runner ${where} scripts.${name} calls: ${script}` }];
    });
  if (test && !NO_TEST_SCRIPT.test(test)) {
    const managers = managersCalled(test);
    const plain = { argv: ['npm', 'test'], source: `${where} scripts.test: ${test}`, ...(managers.length > 0 ? { needs: managers } : {}) };
    // The script as written first — it may build before it tests — unless it calls another package
    // manager (pnpm, yarn), which this machine may not have: then the runner it calls first. A script
    // that is the runner alone is not offered twice.
    const chained = (commandChain(test)?.length ?? 1) > 1;
    const direct = managers.length > 0 || chained ? runners('test', test) : [];
    found.push(...(managers.length > 0 ? [...direct, plain] : [plain, ...direct]));
  }
  for (const [name, script] of Object.entries(scripts)) {
    if (!/^test[:_-]/.test(name) || runners(name, script).length === 0) continue;
    found.push({ argv: ['npm', 'run', name], source: `${where} scripts.${name}: ${script}` });
  }
  return found;
}
