/**
 * What a guard found, one line per change — except where one folder holds many of the same kind (a
 * flood of planted files): those are counted in one line that names a few, and always every name git
 * runs as a hook. So a report stays readable, and its size does not grow with the flood.
 */
import path from 'node:path';
import { HOOK_NAMES } from './git-dir-layout.ts';

/** Changes of one kind in one folder listed one by one up to this many; more are counted in one line. */
export const LINES_PER_FOLDER = 10;
const SAMPLES = 3;

export type Verb = 'created' | 'changed' | 'removed';

export interface Change {
  /** The path, as the guard shows it (`hooks/pre-commit`, `.git/hooks/pre-commit`). */
  shown: string;
  /** The line for this change alone, its fate included: "hooks/pre-commit was created (restored)". */
  line: string;
  verb: Verb;
  /** The fate shared by the group, for a counted line: "(restored)". */
  fate: string;
}

interface Group {
  folder: string;
  verb: Verb;
  fate: string;
  count: number;
  lines: string[];
  samples: string[];
  hooks: string[];
}

export class ChangeReport {
  private readonly groups = new Map<string, Group>();

  add(change: Change): void {
    const folder = path.posix.dirname(change.shown);
    const key = JSON.stringify([folder, change.verb, change.fate]);
    let group = this.groups.get(key);
    if (!group) {
      group = { folder, verb: change.verb, fate: change.fate, count: 0, lines: [], samples: [], hooks: [] };
      this.groups.set(key, group);
    }
    group.count++;
    const name = path.posix.basename(change.shown);
    if (group.lines.length < LINES_PER_FOLDER) group.lines.push(change.line);
    if (HOOK_NAMES.has(name)) {
      if (!group.hooks.includes(name)) group.hooks.push(name);
    } else if (group.samples.length < SAMPLES) group.samples.push(name);
  }

  lines(): string[] {
    return [...this.groups.values()].flatMap((group) => (group.count <= LINES_PER_FOLDER ? group.lines : [counted(group)]));
  }
}

function counted(group: Group): string {
  const where = group.folder === '.' ? '' : `${group.folder}: `;
  const names = [...group.hooks, ...group.samples].join(', ');
  return `${where}${group.count.toLocaleString('en')} entries were ${group.verb} (${names}, …) ${group.fate}`;
}
