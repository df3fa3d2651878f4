/**
 * A model asked for a whole file sometimes writes part of it and a placeholder for the rest
 * (`// ... rest of the code unchanged`). Committed, that file would be broken — the placeholder is the
 * only sign, so it is looked for, in the comment syntaxes of the languages sopworks writes (`//`, `#`,
 * `/* *\/`, `<!-- -->`, `--`, `;`): a comment that stands in for omitted code, a body that is only `...`,
 * a `pass` under a TODO.
 */

/** A comment's opening, at the start of a line or after code. */
const OPEN = String.raw`(?:\/\/+|#+|\/\*+|<!--|--|;+|\{\/\*|%|\*)`;
const DOTS = String.raw`(?:\.{3,}|…)`;

/**
 * Phrases that say code was left out. Anchored where a plain comment could use the same words: "the
 * rest …", "existing code …" start the comment; "unchanged" and "omitted" count only said of code.
 */
const LEAD = String.raw`^(?:${DOTS})?\s*\(?\s*`;
const REST_OF = String.raw`\brest of (?:the\s+)?(?:code|file|implementation|module|function|class|methods|logic|tests?|component|script|program|body)\b`;
/**
 * "The rest of …" alone may describe the code that follows (`// rest of the test, restoring the previous
 * one afterwards.`, trial gosum1): it is a placeholder only where code is missing (see standsWhereCodeIsMissing).
 */
const REST = new RegExp([REST_OF, String.raw`${LEAD}(?:the\s+)?rest\b`].join('|'), 'i');
const OMITTED = new RegExp(
  [
    String.raw`${REST_OF}\s*(?:(?:goes\s+)?here\b|${DOTS})`,
    String.raw`${LEAD}(?:the\s+)?(?:existing|previous|original|other|remaining|same)\s+(?:code|implementation|logic|methods|functions|imports|tests|handlers|routes|content|body|fields|styles|rules)\b`,
    String.raw`${LEAD}(?:your\s+|the\s+)?(?:code|implementation|logic)\s+(?:goes\s+)?here\b`,
    String.raw`\b(?:code|implementation|logic|body|tests?)\s+(?:goes|go)\s+here\b`,
    String.raw`${LEAD}(?:unchanged|as before|same as (?:before|above))\)?\s*\.?$`,
    String.raw`\b(?:same|unchanged|identical) as (?:before|above|the original|earlier)\b`,
    String.raw`\b(?:code|implementation|details|logic|body|methods|functions|tests?|everything else|the rest)\s+(?:\w+\s+)?(?:omitted|elided|unchanged|remains? unchanged|stays? the same|remains? the same)\b`,
    String.raw`\bfor brevity\b`,
  ].join('|'),
  'i',
);

const PLACEHOLDERS: RegExp[] = [
  // `// ... existing code`, `# … rest unchanged`, `/* ... more handlers */`
  new RegExp(String.raw`^\s*${OPEN}\s*${DOTS}\s*\(?\s*(?:rest|remaining|existing|unchanged|same|previous|other|more|code|implementation|etc)\b`, 'i'),
  // `// ...`, `# …`, `/* ... */`, `<!-- ... -->`, `{/* ... */}`: a comment that is only an ellipsis
  new RegExp(String.raw`^\s*${OPEN}\s*${DOTS}\s*(?:\*\/\}?|-->)?\s*$`),
  // `{ /* ... */ }`, `return x; // ...` and the like: an ellipsis comment after code
  new RegExp(String.raw`\/\*\s*${DOTS}\s*\*\/|<!--\s*${DOTS}\s*-->`),
  // `{ ... }` standing for a body (JS/TS/Java/C…; `{ ...rest }` is a spread, not this)
  new RegExp(String.raw`\{\s*${DOTS}\s*\}`),
];

/** A comment's opening for a placeholder in words (`*` and `%` left out: too common in code between spaces). */
const COMMENT = /(?:^\s*|\s)(?:\/\/+|#+|\/\*+|<!--|--|;+|\{\/\*)\s*(.*)$/;

/** Prose, not code: its headings and lists are not comments, and "..." is punctuation. */
const PROSE = /\.(?:md|markdown|txt|rst|adoc|csv|tsv|json|lock|svg)$/i;

/**
 * Prose standing in for code, as a whole-line comment: wrapped in ellipses (`// ... parsing loop as
 * before ...`), in parentheses saying it is unchanged or left out (`# (helpers unchanged)`), or ending
 * "as before" / "as above" (`// validation as above`). A comment that describes code ("returns the input
 * unchanged") is none of these.
 */
const STANDS_IN = new RegExp(
  [
    String.raw`^${DOTS}\s*\S.*\S\s*${DOTS}$`,
    String.raw`^\(.*\b(?:unchanged|omitted|elided|as before|as above|not shown)\)$`,
    String.raw`\b(?:as|same as) (?:before|above|earlier|previously)\.?$`,
  ].join('|'),
  'i',
);

/**
 * A comment line (or a trailing comment) saying code was left out — its text short, a placeholder not
 * prose: `'omitted'` when its words say so whatever follows, `'rest'` when it says "the rest of …" and is
 * one only where code is missing, null when it is neither.
 */
function omittedComment(line: string): 'omitted' | 'rest' | null {
  const comment = COMMENT.exec(line);
  if (!comment) return null;
  const text = comment[1]!.replace(/(?:\*\/\}?|-->)\s*$/, '').trim();
  if (text.split(/\s+/).length > 10) return null;
  if (OMITTED.test(text)) return 'omitted';
  // Only a comment on a line of its own: after code, "as before" may well describe that code.
  const ownLine = /^\s*(?:\/\/+|#+|\/\*+|<!--|--|;+|\{\/\*)/.test(line);
  if (ownLine && STANDS_IN.test(text)) return 'omitted';
  return REST.test(text) ? 'rest' : null;
}

const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;
/** A line that closes a block: a bracket, or a keyword that ends one (Ruby, Lua, shell), or a closing tag. */
const CLOSES = /^\s*(?:[}\])]|end\b|fi\b|done\b|esac\b|<\/)/;

/**
 * Whether the line at `i` stands where code is missing: nothing follows it, or what follows closes its
 * block or sits less indented (Python's dedent) — not code that goes on at its level, which it describes.
 */
function standsWhereCodeIsMissing(lines: readonly string[], i: number): boolean {
  const next = lines.slice(i + 1).find((line) => line.trim() !== '' && !/^\s*(?:`{3,}|~{3,})\s*$/.test(line));
  return next === undefined || CLOSES.test(next) || indentOf(next) < indentOf(lines[i]!);
}

const TODO = /^\s*(?:#|\/\/)\s*(?:TODO|FIXME|XXX)\b/i;

/**
 * A line with its quoted spans emptied: `{ … }` in a string or in a comment's inline code (`` `interface
 * X { … }` ``, trial kleur1) names a shape, it stands for no code.
 */
const withoutQuoted = (line: string): string => line.replace(/`[^`\n]*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, '""');

/** The first placeholder line (1-based) and its text, or null when the content has none. */
export function elidedLine(content: string, filePath = ''): { line: number; text: string } | null {
  if (PROSE.test(filePath)) return null;
  const lines = content.split('\n');
  const previous = (i: number): string => {
    for (let j = i - 1; j >= 0; j--) if (lines[j]!.trim() !== '') return lines[j]!;
    return '';
  };
  const index = lines.findIndex((line, i) => {
    if (PLACEHOLDERS.some((p) => p.test(withoutQuoted(line)))) return true;
    const omitted = omittedComment(line);
    if (omitted) return omitted === 'omitted' || standsWhereCodeIsMissing(lines, i);
    // A body that is only `...` (Python's Ellipsis in a function, or a bare placeholder line) — but not
    // in a Protocol, an abstract method or an overload, where `...` is the body by design.
    if (/^\s*(?:\.{3}|…)\s*(?:#.*)?$/.test(line))
      return !/@(?:abstractmethod|overload)|\(Protocol\)|Protocol\[/.test(lines.slice(Math.max(0, i - 4), i).join('\n'));
    // `pass  # TODO …`, or `pass` under a `# TODO` comment: a body not written.
    if (/^\s*pass\s*(?:#.*)?$/.test(line)) return /#\s*(?:TODO|FIXME|implement)/i.test(line) || TODO.test(previous(i));
    return false;
  });
  return index === -1 ? null : { line: index + 1, text: lines[index]!.trim() };
}
