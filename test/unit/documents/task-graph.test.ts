import assert from 'node:assert/strict';
import type { TaskGraph } from '../../../src/documents/schemas.ts';
import { topologicalOrder, validateTaskGraph } from '../../../src/documents/task-graph.ts';

const task = (file: string, dependsOn: string[] = []) => ({ file, description: `write ${file}`, dependsOn });
const design = (...paths: string[]) => ({ files: paths.map((p) => ({ path: p, purpose: `the ${p} file` })) });
const graph = (...tasks: ReturnType<typeof task>[]): TaskGraph => ({ tasks });

describe('task graph', () => {
  describe('validateTaskGraph', () => {
    it('finds nothing wrong with a valid graph', () => {
      const g = graph(task('src/a.js'), task('src/b.js', ['src/a.js']), task('src/main.js', ['src/a.js', 'src/b.js']));
      assert.deepEqual(validateTaskGraph(g, design('src/a.js', 'src/b.js', 'src/main.js')), []);
    });

    it('reports a dependency cycle with its path', () => {
      const g = graph(task('a.js', ['c.js']), task('b.js', ['a.js']), task('c.js', ['b.js']));
      const problems = validateTaskGraph(g, design('a.js', 'b.js', 'c.js'));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, /^dependency cycle: /);
      assert.match(problems[0]!, /a\.js -> c\.js -> b\.js -> a\.js/);
    });

    it('reports a two-file cycle, starting and ending on the same file', () => {
      const problems = validateTaskGraph(graph(task('x.js', ['y.js']), task('y.js', ['x.js'])), design('x.js', 'y.js'));
      assert.deepEqual(problems, ['dependency cycle: x.js -> y.js -> x.js']);
    });

    it('reports a task whose file is not in the design', () => {
      const problems = validateTaskGraph(graph(task('a.js'), task('extra.js')), design('a.js'));
      assert.deepEqual(problems, ['unknown file "extra.js": it is not in the design\'s file list']);
    });

    it('reports a design file that no task writes', () => {
      const problems = validateTaskGraph(graph(task('a.js')), design('a.js', 'forgotten.js'));
      assert.deepEqual(problems, ['missing file "forgotten.js": the design lists it but no task writes it']);
    });

    it('reports a dependency on a file no task writes', () => {
      const problems = validateTaskGraph(graph(task('a.js', ['ghost.js'])), design('a.js'));
      assert.deepEqual(problems, ['"a.js" depends on unknown file "ghost.js"']);
    });

    it('reports two tasks for the same file', () => {
      const problems = validateTaskGraph(graph(task('a.js'), task('a.js')), design('a.js'));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, /duplicate task for "a\.js"/);
    });

    it('reports a task that depends on itself, and not as a cycle', () => {
      const problems = validateTaskGraph(graph(task('a.js', ['a.js'])), design('a.js'));
      assert.deepEqual(problems, ['"a.js" depends on itself']);
    });

    it('reports every problem at once', () => {
      const problems = validateTaskGraph(graph(task('a.js', ['nope.js']), task('stray.js')), design('a.js', 'b.js'));
      assert.equal(problems.length, 3, problems.join('\n'));
      assert.ok(problems.some((p) => p.includes('unknown file "stray.js"')));
      assert.ok(problems.some((p) => p.includes('missing file "b.js"')));
      assert.ok(problems.some((p) => p.includes('depends on unknown file "nope.js"')));
    });
  });

  describe('topologicalOrder', () => {
    it('puts dependencies before the files that need them', () => {
      const order = topologicalOrder(graph(task('main.js', ['cli.js', 'lib.js']), task('cli.js', ['lib.js']), task('lib.js')));
      assert.deepEqual(order, ['lib.js', 'cli.js', 'main.js']);
    });

    it('orders a diamond with ties broken by task-list order', () => {
      // top depends on left and right, which both depend on base; right is listed before left.
      const g = graph(task('top.js', ['left.js', 'right.js']), task('right.js', ['base.js']), task('left.js', ['base.js']), task('base.js'));
      assert.deepEqual(topologicalOrder(g), ['base.js', 'right.js', 'left.js', 'top.js']);
    });

    it('keeps the task-list order when nothing depends on anything', () => {
      assert.deepEqual(topologicalOrder(graph(task('c.js'), task('a.js'), task('b.js'))), ['c.js', 'a.js', 'b.js']);
    });

    it('gives the same order every time', () => {
      const g = graph(task('z.js', ['y.js']), task('y.js'), task('x.js'), task('w.js', ['x.js', 'z.js']));
      const first = topologicalOrder(g);
      assert.deepEqual(first, ['y.js', 'z.js', 'x.js', 'w.js']);
      assert.deepEqual(topologicalOrder(g), first);
    });

    it('throws on a cycle, naming the files involved', () => {
      assert.throws(() => topologicalOrder(graph(task('ok.js'), task('a.js', ['b.js']), task('b.js', ['a.js']))), /cycle among: a\.js, b\.js/);
    });
  });
});
