/**
 * How real models say which file a code block holds, read back into a path:
 * - the fence's info string: ```js src/a.js, ```src/a.js, ```python:src/a.py, ```py title="src/a.py";
 * - a line above the fence, decorated as models decorate it: `src/a.py`, **src/a.py**, ### src/a.py,
 *   ## Code: src/a.py, File: src/a.py, 1. `src/a.py`, - **src/a.py** (the entry point), Here is the
 *   updated `src/a.py`: — the nearest such line within a few lines above (a sentence may come between);
 * - a comment on the block's first line: # src/a.py, // File: src/a.js, <!-- index.html -->.
 * A sentence that merely mentions a path ("Add this import to src/main.py:") is not a label.
 */

import { languagesOf } from './languages.ts';

/** A path: with an extension (a letter in it: not a version number), a dotfile, or with a folder. */
const SEGMENT = String.raw`[\w@.][\w@.\-]*`;
const PATH = new RegExp(String.raw`^(?:${SEGMENT}/+)*(?:[\w@][\w@.\-]*\.[A-Za-z][A-Za-z0-9]*|\.[A-Za-z][\w.\-]*)$|^${SEGMENT}(?:/+${SEGMENT})+$`);
const BARE_NAMES = /^(?:Makefile|Dockerfile|Procfile|LICENSE|Gemfile|Rakefile)$/;

const asPath = (word: string): string | null => {
  const cleaned = word
    .replace(/^\.\//, '')
    .replace(/[:,;]+$/, '')
    .replace(/(?<=\w)\.$/, '');
  if (cleaned.includes('://') || /^\.+$/.test(cleaned) || /^(?:e\.g|i\.e|etc)$/i.test(cleaned)) return null;
  return PATH.test(cleaned) || BARE_NAMES.test(cleaned) ? cleaned : null;
};

const PREFIX =
  /^(?:(?:the\s+)?(?:(?:new|updated|complete|full|final|modified|corrected|fixed)\s+)?(?:file\s*name|filename|file|path|code|source(?:\s+code)?|module|script|tests?(?:\s+file)?|contents?(?:\s+of)?|title|create|update)(?:\s+\d+)?\s*(?:[:=]|\s[-–—])\s*)/i;
const HERE_IS =
  /^here(?:'s|’s|\s+is)\s+(?:the\s+)?(?:(?:updated|complete|full|new|final|corrected|fixed|whole)\s+)?(?:(?:file|code|content|contents|implementation|version|source)\s+)?(?:(?:for|of)\s+)?/i;

/** A line that is only a file label, decorated or not: the path, else null. */
export function labelLine(line: string): string | null {
  let s = line.trim();
  if (s === '' || s.length > 200) return null;
  s = s.replace(/^>\s*/, '').replace(/^#{1,6}\s+/, '');
  s = s.replace(/^(?:[-*+]\s+|\d+[.)]\s+)/, '');
  s = s
    .replace(/[*`]/g, '')
    .replace(/^_+|_+$/g, '')
    .trim();
  s = s.replace(/^\d+[.)]\s+/, '');
  s = s.replace(HERE_IS, '').replace(PREFIX, '');
  s = s
    .replace(/^["']|["']$/g, '')
    .replace(/\s*:$/, '')
    .trim();
  // The path, then perhaps a short description: "src/a.py (the entry point)", "src/a.py — the CLI".
  const match = /^(\S+)(?:\s+(?:\([^)]*\)|[-–—]\s.*))?$/.exec(s);
  return match ? asPath(match[1]!.replace(/^["']|["']$/g, '')) : null;
}

/** A path in the fence's info string, after its language (or as the whole of it). */
export function labelInInfo(info: readonly string[]): string | null {
  const [first = '', ...rest] = info;
  for (const word of rest) {
    const attribute = /^(?:title|file|filename|path)=["']?([^"']+)["']?$/i.exec(word);
    const found = asPath(attribute ? attribute[1]! : word.replace(/^["'`]|["'`]$/g, ''));
    if (found) return found;
  }
  const colon = /^[\w+#-]+:(.+)$/.exec(first);
  if (colon) return asPath(colon[1]!);
  return rest.length === 0 && /[/.]/.test(first) ? asPath(first) : null;
}

/**
 * A line that introduces an example, a command or a snippet rather than a file: it starts so ("Usage:",
 * "Run it with:", "Expected output:") or asks to add a piece to some file ("Add this import to …").
 * Narrow on purpose — a block set aside is not committed, so a file must not look like one.
 */
export const SNIPPET_LEAD_IN =
  /^[#>*\s-]*(?:usage|examples?|for (?:example|instance)|e\.g\.|(?:expected |sample |example )?output|result|(?:to |then |you can )?run\b|(?:to )?install|try (?:it|this)|call it|invoke|commands?|in (?:a|your) terminal)\b|\b(?:add|insert|replace) (?:this|the following|these|a line)\b|\b(?:run|install|start) (?:it|this|them|the tests?|the program|the app) with\b/i;

/**
 * The label on the nearest non-blank line above a fence — or a few lines up, past a sentence about the
 * file. Past a line that introduces a snippet, only a label in the block's own language is taken
 * (`### src/cli.py` / "Usage:" / a bash block is not src/cli.py).
 */
export function labelAbove(before: string, lang = ''): string | null {
  const lines = before.split('\n').filter((l) => l.trim() !== '');
  const nearest = lines.at(-1) ?? '';
  const direct = labelLine(nearest);
  if (direct) return direct;
  const snippet = SNIPPET_LEAD_IN.test(nearest);
  for (const line of lines.slice(-3, -1).reverse()) {
    const found = labelLine(line);
    if (found && (!snippet || fitsLanguage(found, lang))) return found;
    if (found) return null;
  }
  return null;
}

/** Whether a block in `lang` can be the file at `filePath` (an unknown extension or no language: yes). */
function fitsLanguage(filePath: string, lang: string): boolean {
  const family = languagesOf(filePath);
  return lang === '' || family === null || family.has(lang.toLowerCase());
}

const FIRST_LINE_COMMENT = /^\s*(?:\/\/|#(?![![])|--|;|\/\*|<!--|\{\/\*|%)\s*(?:(?:file(?:\s*name)?|path)\s*:\s*)?(\S+?)\s*(?:\*\/\}?|-->)?\s*$/i;

/** A comment on the block's first line that is only a path (`# src/a.py`, `// File: src/a.js`). */
export function labelInFirstLine(content: string): string | null {
  const first = content.split('\n', 1)[0] ?? '';
  const match = FIRST_LINE_COMMENT.exec(first);
  return match ? asPath(match[1]!) : null;
}
