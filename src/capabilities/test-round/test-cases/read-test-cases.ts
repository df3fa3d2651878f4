/**
 * The tests a runner's output names, and how each ended — node --test (TAP, spec), mocha (spec, TAP),
 * Jest, Vitest, AVA, uvu, pytest, unittest, go test, cargo test — for the coverage matrix: which test proves which criterion
 * is read from what the runner printed, never from what a model says. Pure. Forms whose output says
 * nothing of passing tests (pytest -q, go test without -v, node's dot reporter) name only their
 * failures, or nothing: the matrix then says the output names no test.
 */
import { readAva } from './ava.ts';
import { readCargo } from './cargo.ts';
import { gathered, type TestCase } from './cases.ts';
import { goFailureMessage, readGoTest } from './go-test.ts';
import { readJest } from './jest.ts';
import { readMochaSpec } from './mocha-spec.ts';
import { readNodeSpec } from './node-spec.ts';
import { readTap } from './node-tap.ts';
import { readPytest } from './pytest.ts';
import { readUnittest } from './unittest.ts';
import { readUvu } from './uvu.ts';
import { readVitest } from './vitest.ts';

/** Each form is read where its signature is found: a command may run more than one runner (`make test`). */
const READERS = [readTap, readNodeSpec, readMochaSpec, readJest, readVitest, readAva, readUvu, readPytest, readUnittest, readGoTest, readCargo];

// The escape sequences of a coloured reporter (Vitest colours its diffs even without a terminal).
const COLOUR = /\x1b\[[0-9;]*m/g;

const plain = (output: string): string => output.replace(/\r\n/g, '\n').replace(COLOUR, '');

export function readTestCases(output: string): TestCase[] {
  const text = plain(output);
  return gathered(READERS.flatMap((read) => read(text) ?? []));
}

/** Runners whose summary line parse-test-output.ts does not read: their counts are the tests they list. */
const LISTED_ONLY = [readMochaSpec, readJest, readVitest, readAva, readGoTest];

/** The tests listed by a runner of LISTED_ONLY, when the output is one's; null otherwise. */
export function listedOnlyCases(output: string): TestCase[] | null {
  const text = plain(output);
  const cases = LISTED_ONLY.flatMap((read) => read(text) ?? []);
  return cases.length > 0 ? gathered(cases) : null;
}

/** What the output says of a listed failure beyond its name, where its form prints it by the test (go test); '' otherwise. */
export function listedFailureMessage(output: string, name: string): string {
  return readGoTest(plain(output)) ? goFailureMessage(plain(output), name) : '';
}
