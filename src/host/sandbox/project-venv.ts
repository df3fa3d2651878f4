/**
 * A Python project's own virtual environment (`.venv`, made by the dependency install): the commands
 * the sandbox runs in the project find its `python3`, `pip` and tools first, as an activated venv would.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The venv's folders as the sandboxed command sees them, or null when the project has none. */
export function projectVenv(projectDir: string, projectDirInSandbox: string): { bin: string; root: string } | null {
  if (!fs.existsSync(path.join(projectDir, '.venv', 'pyvenv.cfg'))) return null;
  const root = path.join(projectDirInSandbox, '.venv');
  return { root, bin: path.join(root, 'bin') };
}
