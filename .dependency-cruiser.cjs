/**
 * Import rules for src/ (`npm run check:imports`, part of `npm test`): no import cycles between files,
 * and layers that only point down — a folder imports its own layer's generic helpers and the layers
 * below it, never one above or a sibling of its own layer. docs/architecture.md explains the layers.
 */
const LAYERS = [
  // Generic helpers: errors, files (append log, YAML, safe paths), crash points, effect identity.
  ['errors.ts', 'version.ts', 'files', 'testing', 'resume'],
  ['sandbox'],
  ['artifacts'],
  ['board'],
  ['workspace', 'roles', 'policy', 'config', 'approvals', 'models'],
  ['project'],
  ['llm'],
  ['change'],
  ['sop'],
  ['company'],
  ['review', 'tracing'],
  ['eval'],
  ['queue'],
  ['cli'],
];

const at = (name) => `^src/${name.replace('.', '\\.')}${name.endsWith('.ts') ? '$' : '/'}`;
const anyOf = (names) => `(${names.map(at).join('|')})`;

const layerRules = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).flat();
  return layer
    .map((name) => {
      const peers = index === 0 ? [] : layer.filter((other) => other !== name);
      return {
        name: `layer:${name}`,
        comment: `src/${name} may import only from its own folder and the layers below it (${LAYERS.slice(0, index).flat().join(', ') || 'none'}).`,
        severity: 'error',
        from: { path: at(name) },
        to: { path: anyOf([...above, ...peers]) },
      };
    })
    .filter((rule) => rule.to.path !== '()');
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle between files: move the shared part to a lower module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'folder-unknown',
      comment: 'Every top-level folder of src/ has a layer in .dependency-cruiser.cjs: add the new one there.',
      severity: 'error',
      from: { path: '^src/', pathNot: anyOf(LAYERS.flat()) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with; swc reads the imports.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/review/web/' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
