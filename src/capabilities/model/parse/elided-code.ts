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
const OMITTED = new RegExp(
  [
    String.raw`\brest of (?:the\s+)?(?:code|file|implementation|module|function|class|methods|logic|tests?|component|script|program|body)\b`,
    String.raw`${LEAD}(?:the\s+)?rest\b`,
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

/** A comment line (or a trailing comment) saying code was left out; its text must be short, a placeholder not prose. */
function omittedComment(line: string): boolean {
  const comment = COMMENT.exec(line);
  if (!comment) return false;
  const text = comment[1]!.replace(/(?:\*\/\}?|-->)\s*$/, '').trim();
  const words = text.split(/\s+/).length;
  if (words <= 10 && OMITTED.test(text)) return true;
  // Only a comment on a line of its own: after code, "as before" may well describe that code.
  return words <= 10 && /^\s*(?:\/\/+|#+|\/\*+|<!--|--|;+|\{\/\*)/.test(line) && STANDS_IN.test(text);
}

const TODO = /^\s*(?:#|\/\/)\s*(?:TODO|FIXME|XXX)\b/i;

/** The first placeholder line (1-based) and its text, or null when the content has none. */
export function elidedLine(content: string, filePath = ''): { line: number; text: string } | null {
  if (PROSE.test(filePath)) return null;
  const lines = content.split('\n');
  const previous = (i: number): string => {
    for (let j = i - 1; j >= 0; j--) if (lines[j]!.trim() !== '') return lines[j]!;
    return '';
  };
  const index = lines.findIndex((line, i) => {
    if (PLACEHOLDERS.some((p) => p.test(line)) || omittedComment(line)) return true;
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
