/**
 * What a file that depends on a Rust or Java file (or a Go file, as its own package sees it) is shown of it: the items
 * another module may use, with whole signatures — generics, lifetimes, `where` clauses, `throws`,
 * parameters over many lines — bodies as `{ … }`, private items and tests left out, read with
 * tree-sitter; never a signature cut at its first line nor a private helper shown as if public.
 */
import assert from 'node:assert/strict';
import { codeInterface } from '../../../../src/documents/code-interface.ts';
import { grammarOf, languageOf } from '../../../../src/ground/syntax/index.ts';

/** Whether the interface parses as its language once its elisions are made code (`{ … }` → `{}`, `…` → a value). */
async function parsesWhole(file: string, shown: string): Promise<boolean> {
  const tree = (await grammarOf(languageOf(file)!)).parser.parse(shown.replaceAll('{ … }', '{}').replaceAll('…', '0'))!;
  try {
    return !tree.rootNode.hasError;
  } finally {
    tree.delete();
  }
}

const LIB_RS = `//! Renders rows as a Markdown table.
//! The crate's front door.

use std::fmt;
use std::io::{self, Write};

/// The widest a column may be.
pub const MAX_WIDTH: usize = 80;

const PADDING: usize = 1;

/// How a column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
    Center,
}

/// A table: a header and its rows.
#[derive(Debug, Default)]
pub struct Table {
    /// The header's cells.
    pub header: Vec<String>,
    /// Cached widths, worked out on render.
    widths: Vec<usize>,
    pub rows: Vec<Vec<String>>,
}

/// What went wrong reading a row.
#[derive(Debug)]
pub enum TableError {
    Ragged { line: usize, expected: usize, found: usize },
    Io(io::Error),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Ragged { line, expected, found } => write!(f, "line {line}: {found} cells, expected {expected}"),
            TableError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Something a table can be written to.
pub trait Sink {
    /// Writes one line.
    fn line(&mut self, text: &str) -> io::Result<()>;
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Table {
    /// Makes a table of a header and rows.
    pub fn new(
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    ) -> Result<Self, TableError> {
        let table = Table { header, widths: Vec::new(), rows };
        table.check()?;
        Ok(table)
    }

    fn check(&self) -> Result<(), TableError> {
        Ok(())
    }

    /// Renders with one alignment per column.
    pub fn render<'a, W>(&'a self, out: &mut W, align: &[Align]) -> io::Result<()>
    where
        W: Write + ?Sized,
    {
        writeln!(out, "{}", self.header.join(" | "))
    }
}

pub fn parse_align(spec: &str) -> Option<Align> {
    match spec.trim() {
        ":--" => Some(Align::Left),
        _ => None,
    }
}

fn pad(cell: &str, width: usize) -> String {
    format!("{cell:width$}")
}

pub mod escape {
    /// Escapes a pipe in a cell.
    pub fn cell(text: &str) -> String {
        text.replace('|', "\\\\|")
    }

    fn unused() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads() {
        assert_eq!(pad("a", 3), "a  ");
    }
}
`;

const READER_JAVA = `package com.example.csv;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads CSV records from a reader, one at a time.
 */
public final class CsvReader implements AutoCloseable {
    /** The separator used when none is given. */
    public static final char DEFAULT_SEPARATOR = ',';
    private static final int BUFFER = 8192;

    private final Reader in;
    private final char separator;
    int lineNumber;

    /** A record and the line it started on. */
    public record Row(int line, List<String> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /** What a malformed line is. */
    public enum Problem {
        UNCLOSED_QUOTE,
        STRAY_QUOTE {
            @Override
            public String describe() {
                return "a quote inside an unquoted cell";
            }
        };

        public String describe() {
            return name().toLowerCase();
        }
    }

    /** Reads with the default separator. */
    public CsvReader(Reader in) {
        this(in, DEFAULT_SEPARATOR);
    }

    public CsvReader(Reader in,
                     char separator) {
        this.in = in;
        this.separator = separator;
    }

    /**
     * The next record, or null at the end of the input.
     *
     * @throws IOException when the reader fails
     */
    public <T extends Appendable> Row next(T scratch,
                                           List<Problem> problems) throws IOException, CsvException {
        List<String> cells = new ArrayList<>();
        return new Row(lineNumber, cells);
    }

    private String unquote(String cell) {
        return cell.substring(1, cell.length() - 1);
    }

    static {
        System.setProperty("csv.loaded", "true");
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private static final class Cursor {
        int at;
    }
}

interface Cells {
    List<String> cells();
    default int width() {
        return cells().size();
    }
    private void check() {}
}
`;

const ALIASES_GO = `package table

// ID names a table.
type ID = string

type (
	// Row is one line of cells.
	Row = []string
	cells = []string
)
`;

const OPTIONS_GO = `package wc

import (
	"flag"
	"io"
)

// Version is the tool's version.
const Version = "1.0.0"

const usage = "usage: wc [-l] [-w] [FILE]..."

// options are the flags of one run.
type options struct {
	lines bool
	words bool
}

func parseArgs(args []string,
	stderr io.Writer) (options, []string, error) {
	set := flag.NewFlagSet("wc", flag.ContinueOnError)
	set.SetOutput(stderr)
	var o options
	set.BoolVar(&o.lines, "l", false, "count lines")
	err := set.Parse(args)
	return o, set.Args(), err
}
`;

const MAIN_GO = `package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run counts each operand and prints a line for it; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, len(args))
	return 0
}
`;

describe('codeInterface: Rust and Java', () => {
  describe('Rust', () => {
    let out = '';
    before(async () => {
      out = await codeInterface('src/lib.rs', LIB_RS);
    });

    it("shows the crate's doc, public functions with whole signatures — generics, lifetimes, where clauses — and bodies as { … }", () => {
      assert.ok(out.startsWith("//! Renders rows as a Markdown table.\n//! The crate's front door.\n"), out);
      assert.ok(
        out.includes(
          '    /// Makes a table of a header and rows.\n    pub fn new(\n        header: Vec<String>,\n        rows: Vec<Vec<String>>,\n    ) -> Result<Self, TableError> { … }',
        ),
        out,
      );
      assert.ok(
        out.includes("    pub fn render<'a, W>(&'a self, out: &mut W, align: &[Align]) -> io::Result<()>\n    where\n        W: Write + ?Sized,\n    { … }"),
        out,
      );
      assert.ok(out.includes('pub fn parse_align(spec: &str) -> Option<Align> { … }'), out);
    });

    it('shows public types with their docs and attributes, a struct without its private fields, traits and trait impls', () => {
      assert.ok(
        out.includes('/// How a column is aligned.\n#[derive(Debug, Clone, Copy, PartialEq, Eq)]\npub enum Align {\n    Left,\n    Right,\n    Center,\n}'),
        out,
      );
      assert.ok(
        out.includes(
          "#[derive(Debug, Default)]\npub struct Table {\n    /// The header's cells.\n    pub header: Vec<String>,\n    pub rows: Vec<Vec<String>>,\n}",
        ),
        out,
      );
      assert.ok(out.includes('pub const MAX_WIDTH: usize = 80;'), out);
      assert.ok(out.includes("impl fmt::Display for TableError {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { … }\n}"), out);
      assert.ok(out.includes('    fn line(&mut self, text: &str) -> io::Result<()>;\n    fn finish(&mut self) -> io::Result<()> { … }'), out);
      assert.ok(out.includes('pub mod escape {\n    /// Escapes a pipe in a cell.\n    pub fn cell(text: &str) -> String { … }\n}'), out);
    });

    it('leaves out private items and fields, their comments, imports, bodies and the tests', () => {
      for (const gone of ['PADDING', 'widths', 'Cached widths', 'fn check', 'fn pad', 'unused', 'mod tests', 'cfg(test)', 'use std', 'writeln!', 'match spec'])
        assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
    });

    it('is whole code: it parses once its elisions are made code', async () => {
      assert.ok(await parsesWhole('src/lib.rs', out), out);
    });

    it('says so when a file has no public item', async () => {
      assert.equal(await codeInterface('src/main.rs', 'fn main() {\n    println!("hi");\n}\n'), '(it has no public items)');
    });
  });

  describe('Java', () => {
    let out = '';
    before(async () => {
      // Seen from a class of its own package (its folder): package-private members too.
      out = await codeInterface('src/main/java/com/example/csv/CsvReader.java', READER_JAVA, 'src/main/java/com/example/csv/Main.java');
    });

    it('shows the package and each type with its header, javadoc, and members not private, signatures whole', () => {
      assert.ok(
        out.startsWith(
          'package com.example.csv;\n\n/**\n * Reads CSV records from a reader, one at a time.\n */\npublic final class CsvReader implements AutoCloseable {\n',
        ),
        out,
      );
      assert.ok(
        out.includes("    /** The separator used when none is given. */\n    public static final char DEFAULT_SEPARATOR = ',';\n    int lineNumber;"),
        out,
      );
      assert.ok(out.includes('    public CsvReader(Reader in,\n                     char separator) { … }'), out);
      assert.ok(
        out.includes(
          '     * @throws IOException when the reader fails\n     */\n    public <T extends Appendable> Row next(T scratch,\n                                           List<Problem> problems) throws IOException, CsvException { … }',
        ),
        out,
      );
      assert.ok(out.includes('    @Override\n    public void close() throws IOException { … }'), out);
    });

    it("shows nested records and enums, an enum constant's own body as { … }, and an interface's default methods", () => {
      assert.ok(out.includes('    public record Row(int line, List<String> cells) {\n        public Row { … }\n    }'), out);
      assert.ok(out.includes('        UNCLOSED_QUOTE,\n        STRAY_QUOTE { … };\n\n        public String describe() { … }'), out);
      assert.ok(out.includes('interface Cells {\n    List<String> cells();\n    default int width() { … }\n}'), out);
    });

    it('leaves out private members, initializer blocks, imports and bodies', () => {
      for (const gone of ['BUFFER', 'private final', 'unquote', 'Cursor', 'static {', 'check()', 'import ', 'new ArrayList', 'setProperty'])
        assert.ok(!out.includes(gone), `"${gone}" should not be shown:\n${out}`);
    });

    it('is whole code: it parses once its elisions are made code', async () => {
      assert.ok(await parsesWhole('src/main/java/com/example/csv/CsvReader.java', out), out);
    });

    it('shows a class of another package only what is public or protected', async () => {
      const seen = await codeInterface('src/main/java/com/example/csv/CsvReader.java', READER_JAVA, 'src/main/java/com/example/app/Main.java');
      assert.ok(seen.includes('    public CsvReader(Reader in,\n                     char separator) { … }'), seen);
      assert.ok(seen.includes('        public String describe() { … }'), seen);
      for (const gone of ['lineNumber', 'interface Cells']) assert.ok(!seen.includes(gone), `"${gone}" should not be shown:\n${seen}`);
      assert.ok(await parsesWhole('src/main/java/com/example/csv/CsvReader.java', seen), seen);
    });
  });

  describe('Go', () => {
    it("shows a file of its own package (its folder) the unexported names too, and another package's only the exported", async () => {
      const seen = await codeInterface('wc/options.go', OPTIONS_GO, 'wc/count.go');
      assert.ok(seen.includes('// options are the flags of one run.\ntype options struct {\n\tlines bool\n\twords bool\n}'), seen);
      assert.ok(seen.includes('func parseArgs(args []string,\n\tstderr io.Writer) (options, []string, error) { … }'), seen);
      assert.ok(seen.includes('const usage = "usage: wc [-l] [-w] [FILE]..."'), seen);
      assert.ok(!seen.includes('flag.NewFlagSet'), seen);
      assert.ok(await parsesWhole('wc/options.go', seen), seen);
      assert.equal(
        await codeInterface('wc/options.go', OPTIONS_GO, 'cmd/wc/main.go'),
        'package wc\n\n// Version is the tool\'s version.\nconst Version = "1.0.0"',
      );
      assert.equal(await codeInterface('wc/options.go', OPTIONS_GO), 'package wc\n\n// Version is the tool\'s version.\nconst Version = "1.0.0"');
    });

    it("shows a package main's whole top level to anyone — nothing imports it: README.md documents it, main_test.go calls it", async () => {
      const seen = await codeInterface('main.go', MAIN_GO, 'README.md');
      assert.ok(
        seen.includes(
          '// run counts each operand and prints a line for it; it returns the exit code.\nfunc run(args []string, stdout, stderr io.Writer) int { … }',
        ),
        seen,
      );
      assert.ok(seen.includes('func main() { … }'), seen);
      assert.ok(!seen.includes('os.Exit'), seen);
    });

    it('shows exported aliases, alone or grouped, and leaves the unexported out', async () => {
      const out = await codeInterface('table/alias.go', ALIASES_GO);
      assert.equal(out, 'package table\n\n// ID names a table.\ntype ID = string\n\ntype (\n\t// Row is one line of cells.\n\tRow = []string\n)');
    });
  });
});
