/**
 * A command line as a repository's files write it (a tox `commands` line, a Makefile recipe, a
 * package.json script), split into words as a POSIX shell would — quotes and backslashes — but only
 * when it is one plain command: a pipe, a redirection, `&&`, a substitution or a variable leaves it
 * unsplit (null), since it needs a shell, which the sandbox runs only through the repository's own
 * runner (`make test`, `npm test`). Pure.
 */

/** Characters outside quotes that make a line more than one plain command. */
const SHELL_SYNTAX = /[|&;<>()`$]/;

export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word = (word ?? '') + char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) word = (word ?? '') + line[++i];
      else if (/[$`]/.test(char)) return null;
      else word = (word ?? '') + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (SHELL_SYNTAX.test(char)) {
      return null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) return null;
  if (word !== null) words.push(word);
  return words.length > 0 ? words : null;
}

/** The plain commands of a line joined by `&&` or `;` (each split by shellWords); null when one of them is not plain. */
export function commandChain(line: string): string[][] | null {
  const parts = line.split(/\s*(?:&&|;)\s*/).filter((part) => part.trim() !== '');
  const commands = parts.map(shellWords);
  return commands.every((c): c is string[] => c !== null) ? commands : null;
}
