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

/** `File:`, `## Code:`, `Main file:`, `Entry point file -`: a word or two may qualify what comes before the colon. */
const PREFIX =
  /^(?:(?:the\s+)?(?:[a-z][\w-]*\s+){0,2}?(?:file\s*name|filename|file|path|code|source(?:\s+code)?|module|script|tests?(?:\s+file)?|contents?(?:\s+of)?|title|create|update)(?:\s+\d+)?\s*(?:[:=]|\s[-–—])\s*)/i;
/** `Updated src/a.py`, `New file src/b.py`: the path after a word saying what became of it. */
const STATE = /^(?:updated|new|modified|revised|fixed|corrected|complete|full|final)\s+(?=\S+$)/i;
/**
 * A description after `path:` that asks for a change rather than describing the file: `src/a.py: add
 * this import at the top` is a snippet for that file, not the file.
 */
const CHANGE = /\b(?:add|insert|replace|change|modify|remove|delete|append|prepend)\b|\bas follows\b|\bthe following\b|\bsnippets?\b|\blines?\b/i;
const HERE_IS =
  /^here(?:'s|’s|\s+is)\s+(?:the\s+)?(?:(?:updated|complete|full|new|final|corrected|fixed|whole)\s+)?(?:(?:file|code|content|contents|implementation|version|source)\s+)?(?:(?:for|of)\s+)?/i;

/** A line that is only a file label, decorated or not: the path, else null. */
export function labelLine(line: string): string | null {
  let s = line.trim();
  if (s === '' || s.length > 200) return null;
  s = s.replace(/^>\s*/, '').replace(/^#{1,6}\s+/, '');
  s = s.replace(/^(?:[-*+]\s+|\d+[.)]\s+)/, '');
  // Emphasis by underscores wraps the whole label (`__src/a.py__`, `_a.py_`); a path's own underscores stay
  // (`__tests__/a.test.js`, `__init__.py`).
  s = s
    .replace(/[*`]/g, '')
    .replace(/^(_{1,2})(\S(?:.*\S)?)\1$/, '$2')
    .trim();
  s = s.replace(/^\d+[.)]\s+/, '');
  s = s.replace(HERE_IS, '').replace(PREFIX, '').replace(STATE, '');
  s = s
    .replace(/^["']|["']$/g, '')
    .replace(/\s*:$/, '')
    .trim();
  // The path, then perhaps a short description: "src/a.py (the entry point)", "src/a.py — the CLI",
  // "src/a.py: the entry point" (but not "src/a.py: add this import").
  const match = /^(\S+?)(?:\s+(?:\([^)]*\)|[-–—]\s.*)|:\s+(\S.*))?$/.exec(s);
  if (!match || (match[2] !== undefined && CHANGE.test(match[2]))) return null;
  return asPath(match[1]!.replace(/^["']|["']$/g, ''));
}

/** A verb or an adverb that introduces what follows: "Let's start with", "Next, we will create", "Here is". */
const INTRODUCES =
  /\b(?:let['’]?s|let us|we(?:['’]ll| will)|i(?:['’]ll| will)|start(?:ing)? with|begin(?:ning)? with|create|write|here(?:['’]s| is)|below is|next|now|then|finally|first|name this file)\b/i;
/** The path as the file spoken of: `the main.py file`, `` the `a.py` file ``, `file "a.py"`, `this file "a.py"`. */
const FILE_NAMED = [/`?([\w@./-]+)`?\s+file\b/gi, /\bfile\s+["'`]([\w@./-]+)["'`]/gi];
/** Words that make the block a piece of the file, not the file: a method in it, an import to add to it. */
const PIECE =
  /\b(?:in|into|to|at the top of|inside)\s+(?:the\s+)?`?[\w@./-]+`?\s+file\b|\b(?:method|function|class|snippet|import|line|lines|statement|section|part|change|changes)\b/i;

/**
 * A sentence that introduces one file as what follows: "Let's start with the `main.py` file:", "Next,
 * we will create a requirements.txt file to list the dependencies.", "We will name this file
 * "app.py"." — as recorded in real replies (ChatDev's logs). Not one that speaks of a piece of a file
 * ("add the following import to the main.py file:"), nor one naming two files.
 */
export function introducedFile(line: string): string | null {
  const s = line.trim();
  if (s === '' || s.length > 240 || !INTRODUCES.test(s) || PIECE.test(s) || SNIPPET_LEAD_IN.test(s)) return null;
  const named = FILE_NAMED.flatMap((pattern) => [...s.matchAll(pattern)].map((m) => asPath(m[1]!))).filter((p): p is string => p !== null);
  return new Set(named).size === 1 ? named[0]! : null;
}

/** Lines a header puts between a file's name and its block: `LANGUAGE: Python`, `DOCSTRING: …`, `CODE:`. */
const HEADER_FIELD = /^\s*(?:language|lang|docstring|description|purpose|code|contents?)\s*:/i;

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
  /\b(?:will|would|should) (?:output|print|display)\b|\boutput:\s*$|^[#>*\s-]*(?:usage|examples?|for (?:example|instance)|e\.g\.|(?:expected |sample |example )?output|result|(?:to |then |you can )?run\b|(?:to )?install|try (?:it|this)|call it|invoke|commands?|in (?:a|your) terminal)\b|\b(?:add|insert|replace) (?:this|the following|these|a line)\b|\b(?:run|install|start) (?:it|this|them|the tests?|the program|the app) with\b/i;

/**
 * The label on the nearest non-blank line above a fence — or a few lines up, past a sentence about the
 * file. Past a line that introduces a snippet, only a label in the block's own language is taken
 * (`### src/cli.py` / "Usage:" / a bash block is not src/cli.py).
 */
export function labelAbove(before: string, lang = ''): string | null {
  const lines = before.split('\n').filter((l) => l.trim() !== '' && !HEADER_FIELD.test(l));
  const nearest = lines.at(-1) ?? '';
  const direct = labelLine(nearest) ?? introducedFile(nearest);
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

/**
 * The block's first line, when it is only the file's name — bare or after `File:`, in no comment —
 * followed by the code (`main.py` then `def main():`, as real replies under an "OUTPUT:" heading write
 * it): the name is the block's label, and not a line of the file. Only a name with a folder or an
 * extension that fits the block's language: a `.gitignore` starting with `.env` keeps its first line.
 */
export function nameAsFirstLine(content: string, lang: string): { label: string; content: string } | null {
  const [first = '', ...rest] = content.split('\n');
  if (lang === '' || rest.every((line) => line.trim() === '') || /^\s*(?:\/\/|#|--|;|\/\*|<!--|%)/.test(first)) return null;
  const name = labelLine(first);
  if (!name || name.startsWith('.') || !/\.[A-Za-z]/.test(name) || !fitsLanguage(name, lang) || languagesOf(name) === null) return null;
  return { label: name, content: rest.join('\n').replace(/^\n+/, '') };
}

/** A comment on the block's first line that is only a path (`# src/a.py`, `// File: src/a.js`). */
export function labelInFirstLine(content: string): string | null {
  const first = content.split('\n', 1)[0] ?? '';
  const match = FIRST_LINE_COMMENT.exec(first);
  return match ? asPath(match[1]!) : null;
}
