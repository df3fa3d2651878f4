/**
 * How real models say which file a code block holds, read back into a path:
 * - the fence's info string: ```js src/a.js, ```src/a.js, ```python:src/a.py, ```py title="src/a.py";
 * - a line above the fence, decorated as models decorate it: `src/a.py`, **src/a.py**, ### src/a.py,
 *   ## Code: src/a.py, File: src/a.py, 1. `src/a.py`, - **src/a.py** (the entry point), Here is the
 *   updated `src/a.py`: — the nearest such line within a few lines above (a sentence may come between);
 * - a comment on the block's first line: # src/a.py, // File: src/a.js, <!-- index.html -->.
 * A sentence that merely mentions a path ("Add this import to src/main.py:") is not a label.
 */

/** A path: with an extension (a letter in it: not a version number), a dotfile, or with a folder. */
const SEGMENT = String.raw`[\w@.][\w@.\-]*`;
const PATH = new RegExp(String.raw`^(?:${SEGMENT}/+)*(?:[\w@][\w@.\-]*\.[A-Za-z][A-Za-z0-9]*|\.[A-Za-z][\w.\-]*)$|^${SEGMENT}(?:/+${SEGMENT})+$`);
const BARE_NAMES = /^(?:Makefile|Dockerfile|Procfile|LICENSE|Gemfile|Rakefile)$/;

const asPath = (word: string): string | null => {
  const cleaned = word.replace(/^\.\//, '').replace(/[:,;]+$/, '').replace(/(?<=\w)\.$/, '');
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
  s = s.replace(/[*`]/g, '').replace(/^_+|_+$/g, '').trim();
  s = s.replace(/^\d+[.)]\s+/, '');
  s = s.replace(HERE_IS, '').replace(PREFIX, '');
  s = s.replace(/^["']|["']$/g, '').replace(/\s*:$/, '').trim();
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

/** Words that introduce an example, a command or a snippet rather than a file. */
export const SNIPPET_LEAD_IN =
  /\b(?:usage|example|e\.g\.|for instance|run (?:it|this|them|the|with)|to run|install|output|prints?|you (?:can|could|should)|add (?:this|the following|these|a line)|insert|replace|snippet|try (?:it|this)|command|invoke|call it|like this|as follows|in your|import (?:it|them))\b/i;

/** The label on the nearest non-blank line above a fence — or a few lines up, past a sentence about the file. */
export function labelAbove(before: string): string | null {
  const lines = before.split('\n').filter((l) => l.trim() !== '');
  const nearest = lines.at(-1) ?? '';
  const direct = labelLine(nearest);
  if (direct) return direct;
  if (SNIPPET_LEAD_IN.test(nearest)) return null;
  for (const line of lines.slice(-3, -1).reverse()) {
    const found = labelLine(line);
    if (found) return found;
  }
  return null;
}

const FIRST_LINE_COMMENT = /^\s*(?:\/\/|#(?![!\[])|--|;|\/\*|<!--|\{\/\*|%)\s*(?:(?:file(?:\s*name)?|path)\s*:\s*)?(\S+?)\s*(?:\*\/\}?|-->)?\s*$/i;

/** A comment on the block's first line that is only a path (`# src/a.py`, `// File: src/a.js`). */
export function labelInFirstLine(content: string): string | null {
  const first = content.split('\n', 1)[0] ?? '';
  const match = FIRST_LINE_COMMENT.exec(first);
  return match ? asPath(match[1]!) : null;
}
