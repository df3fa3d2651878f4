/**
 * Why an install was refused before it ran: what was found, where (file:line), why it is not
 * installed, and what to write instead. A refused install is a failed test round like any other: the
 * Engineer gets it as a bug report, and `resume` installs once the manifest is fixed.
 */
export interface Refusal {
  /** The file, relative to the project. */
  file: string;
  /** 1-based; null when the file as a whole is the problem. */
  line: number | null;
  /** What was found, quoted from the file. */
  found: string;
  why: string;
  fix: string;
}

export function describeRefusal(refusal: Refusal): string {
  const where = refusal.line === null ? refusal.file : `${refusal.file}:${refusal.line}`;
  return `${where}: ${refusal.found} — ${refusal.why}; ${refusal.fix}`;
}

/** The 1-based line of the first occurrence of `needle` in `text` at or after line `from`; null when absent. */
export function lineOf(text: string, needle: string, from = 1): number | null {
  const lines = text.split('\n');
  for (let index = Math.max(0, from - 1); index < lines.length; index++) if (lines[index]!.includes(needle)) return index + 1;
  return null;
}

/** A JSON string as it is written in a file (quotes and escapes), to find its line. */
export const jsonString = (value: string): string => JSON.stringify(value);
