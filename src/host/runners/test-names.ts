/**
 * A test command as the sandbox runs it so that its output names each test: the coverage matrix proves a
 * criterion by a passing test that names its id, and unittest, pytest and `go test` print names only when
 * asked (`-v`). The command kept in the design and the report is the one written; this is how it is run,
 * shown as "run as …". A runner reached another way (`npm test`, `make test`, a script) is left as it is.
 * Pure.
 */
import path from 'node:path';

const PYTHON = /^python(\d+(\.\d+)?)?$/;
const VERBOSE = new Set(['-v', '-vv', '-vvv', '--verbose']);
const INTERPRETER_FLAGS = /^-[IBuEsSObq]+$/;

export function namingTests(argv: readonly string[]): string[] {
  const words = [...argv];
  if (words.some((word) => VERBOSE.has(word) || word === '-json')) return words;
  const program = path.basename(words[0] ?? '');
  if (program === 'go' && words[1] === 'test') return [...words.slice(0, 2), '-v', ...words.slice(2)];
  if (program === 'pytest' || program === 'py.test') return [words[0]!, '-v', ...words.slice(1)];
  if (!PYTHON.test(program)) return words;
  // The interpreter's own options that take no value (`python3 -I -B -m unittest`) may come before -m.
  let m = 1;
  while (INTERPRETER_FLAGS.test(words[m] ?? '')) m++;
  if (words[m] !== '-m') return words;
  const module = m + 1;
  if (words[module] === 'pytest') return [...words.slice(0, module + 1), '-v', ...words.slice(module + 1)];
  if (words[module] !== 'unittest') return words;
  // `discover` must come first after `unittest`; its own options then take -v as well.
  const at = words[module + 1] === 'discover' ? module + 2 : module + 1;
  return [...words.slice(0, at), '-v', ...words.slice(at)];
}
