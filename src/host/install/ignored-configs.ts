/**
 * Configuration files of a project that name package sources but that the install never reads —
 * pip runs with PIP_CONFIG_FILE=/dev/null (no pip.conf anywhere, a venv's included) and installs the
 * listed names, never building the project itself (so setup.cfg and pyproject's tool tables are not
 * read); npm reads no yarn or pnpm file. They are not refused: the report says they were ignored, so
 * nobody believes they took effect. (What the repository's package manager does read is read as data:
 * npmrc-settings.ts, pnpm-workspace.ts.)
 */
import type { NodeManager } from './package-manager.ts';
import { readProjectFile } from './project-file.ts';
import { lineOf } from './refusal.ts';

interface IgnoredConfig {
  file: string;
  ecosystem: 'npm' | 'python';
  /** The Node package managers that do read it (read as data then: npmrc-settings.ts, pnpm-workspace.ts). */
  readBy?: NodeManager[];
  /** What in it names a source; absent: the whole file does. */
  names?: RegExp;
  why: string;
}

const PIP_IGNORES = 'pip runs with PIP_CONFIG_FILE=/dev/null, so it reads no pip configuration file';
const NO_BUILD = 'the install names the packages to pip and never builds the project, so this file is not read';
const CONFIGS: IgnoredConfig[] = [
  { file: 'pip.conf', ecosystem: 'python', why: PIP_IGNORES },
  { file: 'pip.ini', ecosystem: 'python', why: PIP_IGNORES },
  { file: '.venv/pip.conf', ecosystem: 'python', why: PIP_IGNORES },
  { file: '.pip/pip.conf', ecosystem: 'python', why: PIP_IGNORES },
  { file: '.config/pip/pip.conf', ecosystem: 'python', why: PIP_IGNORES },
  { file: 'uv.toml', ecosystem: 'python', why: 'the install uses pip, not uv' },
  { file: 'setup.cfg', ecosystem: 'python', names: /^\s*(\[easy_install\]|index[_-]url|find[_-]links|dependency[_-]links)/m, why: NO_BUILD },
  {
    file: 'pyproject.toml',
    ecosystem: 'python',
    names: /^\s*\[\[?tool\.(uv|poetry|pdm|hatch|pixi)[\].](.*\b(index|source|sources|url)\b)?/m,
    why: 'the install passes pip the [project] dependencies alone; tool tables (uv, poetry, pdm indexes and sources) are not read',
  },
  {
    file: '.yarnrc',
    ecosystem: 'npm',
    readBy: ['yarn-classic'],
    why: 'the repository installs with another package manager, which reads no Yarn 1 configuration',
  },
  {
    file: '.yarnrc.yml',
    ecosystem: 'npm',
    readBy: ['yarn-berry'],
    why: 'the repository installs with another package manager, which reads no Yarn 2+ configuration',
  },
  {
    file: 'pnpm-workspace.yaml',
    ecosystem: 'npm',
    readBy: ['pnpm'],
    why: 'the repository installs with another package manager, which reads no pnpm configuration',
  },
  { file: '.npmrc', ecosystem: 'npm', readBy: ['npm', 'pnpm', 'yarn-classic'], why: 'Yarn 2 and later read no .npmrc' },
];

/** Each present config file that names sources, as a line for the report: where, and why it had no effect. */
export function ignoredConfigs(projectDir: string, ecosystem: 'npm' | 'python', manager: NodeManager = 'npm'): string[] {
  const notes: string[] = [];
  for (const config of CONFIGS.filter((c) => c.ecosystem === ecosystem && !c.readBy?.includes(manager))) {
    let text: string | null;
    try {
      text = readProjectFile(projectDir, config.file);
    } catch {
      notes.push(`${config.file} — a link out of the project; not read, and not read by the install either`);
      continue;
    }
    if (text === null) continue;
    if (config.names) {
      const match = config.names.exec(text);
      if (!match) continue;
      const line = lineOf(text, match[0].trim()) ?? 1;
      notes.push(`${config.file}:${line}: ${text.split('\n')[line - 1]!.trim()} — ignored: ${config.why}`);
    } else {
      notes.push(`${config.file} — ignored: ${config.why}`);
    }
  }
  return notes;
}
