/** namingTests: a test command run so that its output names each test, for the coverage matrix to read. */
import assert from 'node:assert/strict';
import { namingTests } from '../../../../src/host/runners/index.ts';

const run = (command: string) => namingTests(command.split(' ')).join(' ');

describe('a test command run so that it names its tests', () => {
  it('asks unittest for names: after discover and its options, or before the modules it is given', () => {
    assert.equal(run('python3 -m unittest'), 'python3 -m unittest -v');
    assert.equal(run("python3 -m unittest discover -p '*_test.py'"), "python3 -m unittest discover -v -p '*_test.py'");
    assert.equal(run('python -m unittest discover -s test -t .'), 'python -m unittest discover -v -s test -t .');
    assert.equal(run('python3.12 -m unittest tests.test_cli'), 'python3.12 -m unittest -v tests.test_cli');
    assert.equal(run('.venv/bin/python -m unittest'), '.venv/bin/python -m unittest -v');
    assert.equal(run('python3 -I -B -m unittest discover'), 'python3 -I -B -m unittest discover -v');
  });

  it('asks pytest and go test for names', () => {
    assert.equal(run('pytest -q tests'), 'pytest -v -q tests');
    assert.equal(run('python3 -m pytest'), 'python3 -m pytest -v');
    assert.equal(run('go test ./...'), 'go test -v ./...');
    assert.equal(run('go test -race ./pkg/...'), 'go test -v -race ./pkg/...');
  });

  it('leaves a command that names its tests already, or that it does not know, as it was written', () => {
    for (const command of [
      'python3 -m unittest discover -v',
      'python3 -m unittest --verbose',
      'pytest -vv',
      'go test -v ./...',
      'go test -json ./...',
      'node --test',
      'npx vitest run',
      'npm test',
      'make test',
      'python3 -m mypkg.tests',
      'python3 -W error -m unittest',
      'cargo test',
    ]) {
      assert.equal(run(command), command);
    }
  });
});
