/**
 * A model asked for a whole file sometimes writes part of it and a placeholder for the rest
 * (`// ... rest of the code unchanged`). Committed, that file would be broken — the placeholder is the
 * only sign, so it is looked for: a comment line that stands in for omitted code.
 */
const PLACEHOLDERS = [
  // `// ... existing code`, `# … rest unchanged`, `/* ... more handlers */`
  /^\s*(?:\/\/|#|\/\*|<!--|--|;)\s*(?:\.{3}|…)\s*\(?\s*(?:rest|remaining|existing|unchanged|same|previous|other|more|code|implementation)\b/i,
  // `// rest of the code unchanged`, `# (the rest of the file stays the same)`
  /^\s*(?:\/\/|#|\/\*|<!--|--|;)\s*\(?\s*(?:the\s+)?rest of (?:the\s+)?(?:code|file|implementation|module|function|class|methods)\b/i,
];

/** The first placeholder line (1-based) and its text, or null when the content has none. */
export function elidedLine(content: string): { line: number; text: string } | null {
  const lines = content.split('\n');
  const index = lines.findIndex((line) => PLACEHOLDERS.some((p) => p.test(line)));
  return index === -1 ? null : { line: index + 1, text: lines[index]!.trim() };
}
