/**
 * The public interface of a source file: what a file that depends on it needs to know — what it exports,
 * with whole signatures, without bodies or private helpers. Read with tree-sitter (src/ground/syntax/)
 * for JavaScript, TypeScript, Python, Go, Rust and Java (./code-interface/*.ts, one file per language).
 * What "exported" means depends on who looks: a Go file sees the unexported names of the files of its own
 * package (its folder), so a dependent in the same folder is shown them too (`by`: the dependent's path). Any other file,
 * and one that does not parse, is shown whole when short, else its first lines up to a blank line, with
 * the number of lines left out.
 */
import { posix } from 'node:path';
import { grammarOf, languageOf, type SyntaxLanguage, type SyntaxNode } from '../ground/syntax/index.ts';
import { goInterface } from './code-interface/go.ts';
import { javaInterface } from './code-interface/java.ts';
import { javascriptInterface } from './code-interface/javascript.ts';
import { pythonInterface } from './code-interface/python.ts';
import { rustInterface } from './code-interface/rust.ts';

/** `samePackage`: the dependent is in the file's own package, and sees what the package keeps to itself. */
type Extract = (root: SyntaxNode, source: string, view: { samePackage: boolean }) => string;

const EXTRACT: Partial<Record<SyntaxLanguage, { extract: Extract; nothing: string }>> = {
  javascript: { extract: javascriptInterface, nothing: '(it exports nothing)' },
  typescript: { extract: javascriptInterface, nothing: '(it exports nothing)' },
  tsx: { extract: javascriptInterface, nothing: '(it exports nothing)' },
  python: { extract: pythonInterface, nothing: '(it has no public names)' },
  go: { extract: goInterface, nothing: '(it exports nothing)' },
  rust: { extract: rustInterface, nothing: '(it has no public items)' },
  java: { extract: javaInterface, nothing: '(it declares no type)' },
};

/** A file of another language up to this many lines is shown whole. */
const WHOLE_LINES = 60;
/** Of a longer one, the lines before the last blank line within this many. */
const HEAD_LINES = 40;

/** The last interface made of each path (as seen from its package, or from outside), with the content it was made from: write, review and revise all ask. */
const made = new Map<string, { content: string; shown: string }>();

/** A file's interface as `by` (the path of the file that depends on it) sees it; from outside its package when `by` is not given. */
export async function codeInterface(path: string, content: string, by?: string): Promise<string> {
  const samePackage = by !== undefined && languageOf(by) === languageOf(path) && posix.dirname(by) === posix.dirname(path);
  const key = `${samePackage ? 'package' : 'outside'}\0${path}`;
  const last = made.get(key);
  if (last?.content === content) return last.shown;
  const shown = await interfaceOf(path, content, samePackage);
  made.set(key, { content, shown });
  return shown;
}

async function interfaceOf(path: string, content: string, samePackage: boolean): Promise<string> {
  const language = languageOf(path);
  const reader = language ? EXTRACT[language] : undefined;
  if (!language || !reader) return head(content);
  const grammar = await grammarOf(language);
  const tree = grammar.parser.parse(content);
  try {
    // A file that does not parse (a draft a fast check would refuse) has no tree to trust: its text is shown.
    if (!tree || tree.rootNode.hasError) return head(content);
    const extracted = reader.extract(tree.rootNode, content, { samePackage });
    return extracted.trim() === '' ? reader.nothing : extracted;
  } finally {
    tree?.delete();
  }
}

function head(content: string): string {
  const lines = content.split('\n');
  if (lines.length <= WHOLE_LINES) return content;
  const blank = lines.slice(0, HEAD_LINES).findLastIndex((line) => line.trim() === '');
  const kept = lines.slice(0, blank > 0 ? blank : HEAD_LINES);
  return `${kept.join('\n')}\n(… ${lines.length - kept.length} more lines)`;
}
