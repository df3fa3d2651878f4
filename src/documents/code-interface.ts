/**
 * The public interface of a source file: what a file that depends on it needs to know (exports and
 * signatures), without the bodies. Pure and language-aware by file extension; falls back to the head of
 * the file where the language is unknown.
 */
const JS_LIKE = /\.(m?[jt]sx?|cjs|cts)$/;

export function codeInterface(path: string, content: string): string {
  if (JS_LIKE.test(path)) return nonEmpty(jsInterface(content), content);
  if (path.endsWith('.py')) return nonEmpty(pythonInterface(content), content);
  return head(content, 40);
}

function jsInterface(content: string): string {
  const lines = content.split('\n');
  const out: string[] = [];
  let comment: string[] = [];
  let inClass = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (/^\/\*\*/.test(trimmed)) comment = [];
    if (/^(\/\*\*|\*|\*\/)/.test(trimmed)) {
      comment.push(line);
      continue;
    }
    if (/^export\b|^module\.exports\b|^exports\.\w+/.test(line)) {
      out.push(...comment, signature(line));
      inClass = /\bclass\b/.test(line) && !line.includes('}');
    } else if (
      inClass &&
      /^\s{2,4}(static\s+|async\s+|get\s+|set\s+)*#?\w+\s*\(.*\)\s*\{?\s*$/.test(line) &&
      !/^\s*(if|for|while|switch|return)\b/.test(line)
    ) {
      out.push(signature(line));
    } else if (inClass && /^\}/.test(line)) {
      out.push('}');
      inClass = false;
    }
    if (trimmed !== '') comment = [];
  }
  return out.join('\n');
}

function pythonInterface(content: string): string {
  return content
    .split('\n')
    .filter((line) => /^(class|def|async def)\s/.test(line) || /^\s{4}(async\s+)?def\s/.test(line) || /^[A-Z_][A-Z0-9_]*\s*=/.test(line))
    .map((line) => line.replace(/\s*$/, ''))
    .join('\n');
}

/** A declaration line without its body: `export function f(a) {` → `export function f(a) { … }`. */
function signature(line: string): string {
  const open = line.indexOf('{');
  // A class keeps its opening brace: its method signatures follow, then its closing brace.
  if (/\bclass\b/.test(line) && open !== -1) return line.slice(0, open + 1);
  if (/\bfunction\b|\)\s*\{/.test(line) && open !== -1) return `${line.slice(0, open + 1)} … }`;
  return line;
}

const head = (content: string, lines: number): string => content.split('\n').slice(0, lines).join('\n');
const nonEmpty = (extracted: string, content: string): string => (extracted.trim() === '' ? head(content, 40) : extracted);
