/**
 * Blocks in a code reply that are not files: a shell command (in a shell block, or a bare one holding only
 * commands: `pip install requests`), a program's output, an "add this import" snippet, a usage example. Beside blocks that unmistakably are files, such a block is set aside rather
 * than made a reason to re-ask — it has no path and nothing would be committed from it anyway. A block
 * without a path that is none of these (a helper module, say) still is: it may be a file left unnamed.
 */

import type { ScannedBlock } from './fenced-blocks.ts';
import { SNIPPET_LEAD_IN } from './file-labels.ts';

const NOT_SOURCE = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'shell-session', 'terminal', 'powershell', 'ps1', 'cmd', 'bat', 'output', 'log']);

/** A line that runs a package manager, an interpreter or a shell tool: `pip install requests`, `python main.py`. */
const COMMAND_LINE =
  /^\s*(?:sudo\s+)?(?:pip3?|python3?|py|node|npm|npx|yarn|pnpm|deno|bun|cd|git|brew|apt(?:-get)?|dnf|yum|conda|poetry|uv|go|cargo|make|docker|curl|wget|java|javac|ruby|gem|bundle|chmod|mkdir)\s+\S/;

/** Every line of the block is such a command (and a Python file never starts with `pip install`). */
const onlyCommands = (content: string): boolean => {
  const lines = content.split('\n').filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
  return lines.length > 0 && lines.length <= 6 && lines.every((l) => COMMAND_LINE.test(l));
};

export function isNonFileBlock(block: Pick<ScannedBlock, 'label' | 'lang' | 'content' | 'before'>): boolean {
  if (block.label !== null) return false;
  if (NOT_SOURCE.has(block.lang.toLowerCase())) return true;
  if (/^\s*[$>] \S/.test(block.content) || onlyCommands(block.content)) return true;
  const leadIn =
    block.before
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1) ?? '';
  return SNIPPET_LEAD_IN.test(leadIn);
}
