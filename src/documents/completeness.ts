/**
 * Completeness, as ChatDev measures it: a file is complete when no placeholder is left in it — no
 * TODO/FIXME, no "not implemented" error, no function whose body is only `pass` or `...`. Pure: the
 * Engineer's fast check sends such a draft back before review, and the run's figures count the
 * committed files that still have one.
 */
import path from 'node:path';

export interface Placeholder {
  line: number;
  text: string;
  why: string;
}

const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.py', '.go', '.rs', '.java', '.rb', '.sh']);

/** Whether a file is source code whose completeness counts (not a document, data or a manifest). */
export const isSourceFile = (file: string): boolean => CODE_EXTENSIONS.has(path.extname(file).toLowerCase());

const LINE_RULES: { pattern: RegExp; why: string }[] = [
  { pattern: /(\/\/|#|\/\*|\*)\s*(TODO|FIXME|XXX)\b/, why: 'a TODO left in the code' },
  { pattern: /\braise\s+NotImplementedError\b/, why: 'raises NotImplementedError' },
  { pattern: /\bthrow\s+new\s+Error\(\s*(['"`])\s*(not\s+implemented|todo|unimplemented)/i, why: 'throws "not implemented"' },
  { pattern: /\bunimplemented!\(|\btodo!\(/, why: 'an unimplemented!/todo! macro' },
  { pattern: /\bpanic\(\s*"(not implemented|todo)/i, why: 'panics "not implemented"' },
  // "placeholder" as the comment's word for itself (`// placeholder`, `# placeholder: …`, `// placeholder implementation`),
  // not a comment about the code's own placeholders (`// Placeholder delimiter for protected atoms`, trial mdpreview50).
  {
    pattern:
      /(\/\/|#)\s*(your code here|implement (this|me)\b|placeholder\s*($|[:.(—–-]|(for|until)\s+(now|later|the\s+(real|actual))\b|until\b|(implementation|code|logic|body|function|method|stub)s?\b))/i,
    why: 'a placeholder comment',
  },
];

/** What counts as a placeholder, as a prompt states it: from the rules placeholdersIn applies. */
export function placeholderRule(file: string): string | null {
  if (!isSourceFile(file)) return null;
  const kinds = [...LINE_RULES.map((rule) => rule.why), ...(path.extname(file) === '.py' ? ['a function whose body is only `pass` or `...`'] : [])];
  return `\`${file}\` is complete: no placeholder is left in it — none of: ${kinds.join('; ')}.`;
}

/** The placeholders left in a file's content; empty for anything that is not source code. */
export function placeholdersIn(file: string, content: string): Placeholder[] {
  if (!isSourceFile(file)) return [];
  const found: Placeholder[] = [];
  const lines = content.split('\n');
  lines.forEach((text, index) => {
    for (const rule of LINE_RULES) {
      if (rule.pattern.test(text)) {
        found.push({ line: index + 1, text: text.trim(), why: rule.why });
        break;
      }
    }
  });
  if (path.extname(file) === '.py') found.push(...emptyPythonFunctions(lines));
  return found.sort((a, b) => a.line - b.line);
}

/** Python functions whose body is only `pass` or `...` (a docstring before it changes nothing). */
function emptyPythonFunctions(lines: string[]): Placeholder[] {
  const found: Placeholder[] = [];
  for (let i = 0; i < lines.length; i++) {
    const def = /^(\s*)(async\s+)?def\s+(\w+)\s*\(.*:\s*$/.exec(lines[i]!);
    if (!def) continue;
    const indent = def[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      if (line.length - line.trimStart().length <= indent) break;
      body.push(line.trim());
    }
    const statements = withoutDocstring(body);
    if (statements.length === 1 && (statements[0] === 'pass' || statements[0] === '...')) {
      found.push({ line: i + 1, text: lines[i]!.trim(), why: `the function ${def[3]} does nothing (its body is only \`${statements[0]}\`)` });
    }
  }
  return found;
}

function withoutDocstring(body: string[]): string[] {
  const first = body[0];
  if (!first || !/^[rbu]?("""|''')/i.test(first)) return body;
  const quote = first.includes('"""') ? '"""' : "'''";
  const rest = first.slice(first.indexOf(quote) + 3);
  if (rest.includes(quote)) return body.slice(1);
  const end = body.findIndex((line, index) => index > 0 && line.includes(quote));
  return end < 0 ? [] : body.slice(end + 1);
}

/** One line per placeholder, for a revision request. */
export const describePlaceholders = (file: string, found: Placeholder[]): string[] =>
  found.map((p) => `${file}:${p.line}: ${p.why}: ${p.text} — write the real code; nothing may be left unfinished`);
