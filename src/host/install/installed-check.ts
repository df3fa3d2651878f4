/**
 * "Dependencies installed" is said only once what was installed has been checked against the
 * manifest: the installer's own library decides (npm's `npm ls`, pip's `packaging`: npm-install.ts,
 * python-install.ts), inside the sandbox, and says on its last line which declared dependencies are
 * missing or at a version outside their range. Here that line is read — and taken out of the output a
 * person reads. A successful install without the line has not been checked, and does not pass.
 */
import { z } from 'zod';
import { INSTALLED_CHECK_LINE } from './python-install.ts';

/** A declared dependency the install did not satisfy. */
export interface UnmetDependency {
  name: string;
  /** Why, as a person reads it: what was declared, and what was found. */
  why: string;
}

const Reported = z
  .array(
    z.object({
      name: z.string().max(600),
      declared: z.string().max(1000),
      found: z.string().max(300).nullable(),
      /** The manifest that declares it, when not the project's own (a workspace's). */
      manifest: z.string().max(1000).optional(),
    }),
  )
  .max(10_000);

export interface InstalledCheck {
  /** The output without the check's line. */
  output: string;
  /** Null when the installer said nothing about what it installed. */
  unmet: UnmetDependency[] | null;
}

export function readInstalledCheck(output: string, manifest: string): InstalledCheck {
  const lines = output.split('\n');
  const at = lines.findLastIndex((line) => line.startsWith(INSTALLED_CHECK_LINE));
  if (at === -1) return { output, unmet: null };
  let reported: z.infer<typeof Reported>;
  try {
    reported = Reported.parse(JSON.parse(lines[at]!.slice(INSTALLED_CHECK_LINE.length)));
  } catch {
    return { output, unmet: null };
  }
  lines.splice(at, 1);
  return {
    output: lines.join('\n'),
    unmet: reported.map((entry) => ({
      name: entry.name,
      why:
        entry.found === null
          ? `${entry.declared} (${entry.manifest ?? manifest}) is not installed`
          : `${entry.declared} (${entry.manifest ?? manifest}) is installed at ${entry.found}, which does not satisfy it`,
    })),
  };
}

/** What the report says when the installer exited 0 but never said what it installed. */
export const UNCHECKED: UnmetDependency = {
  name: 'the install',
  why: 'the installer exited 0 but did not say what it installed, so the dependencies cannot be said to be installed',
};
