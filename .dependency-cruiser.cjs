/**
 * Import rules for src/ and test/ (`npm run check:imports`, part of `npm test`): no import cycles between files,
 * tiers that only point down, and every unit used through its face — by tests too, but for a unit's own tests
 * (those in its mirror under test/unit/). docs/architecture.md explains the tiers.
 *
 *   ground/        errors, files, logs: no domain
 *   host/          acting on the host without knowing the domain: the sandbox, git processes
 *   engine/        SOP files, the machine builder, steps and the ports they use, the board, the run loop
 *   documents/     what the roles pass each other: the artifacts' schemas, shared by every capability
 *   capabilities/  one folder per capability; none imports another (only the tiers below)
 *   company/       the composition root: assembles the vocabulary and the ports
 *   session/       one typed way into a run (start, change, resume) below every front end
 *   apps/          cli, queue, eval, review, tracing — ordered among themselves below
 */
const TIERS = ['ground', 'host', 'engine', 'documents', 'capabilities', 'company', 'session', 'apps'];
// Apps may use the apps listed before them: console tells a run to a person or a script, for eval's logs and the cli.
const APPS = [['tracing', 'review'], ['console'], ['eval'], ['queue'], ['cli']];

const tierRules = TIERS.map((tier, index) => ({
  name: `tier:${tier}`,
  comment: `src/${tier}/ may import only from itself and the tiers below it (${TIERS.slice(0, index).join(', ') || 'none'}).`,
  severity: 'error',
  from: { path: `^src/${tier}/` },
  to: { path: `^src/(${TIERS.slice(index + 1).join('|') || '$^'})/` },
})).filter((rule) => rule.to.path !== '^src/($^)/');

const capabilityRule = {
  name: 'capability-sibling',
  comment: 'A capability imports no other capability: what it needs from one is a port in src/engine/, handed to it by src/company/.',
  severity: 'error',
  from: { path: '^src/capabilities/([^/]+)/' },
  to: { path: '^src/capabilities/', pathNot: '^src/capabilities/$1/' },
};

const appRules = APPS.flatMap((layer, index) =>
  layer.map((name) => ({
    name: `app:${name}`,
    comment: `src/apps/${name}/ may use only the apps below it (${APPS.slice(0, index).flat().join(', ') || 'none'}).`,
    severity: 'error',
    from: { path: `^src/apps/${name}/` },
    to: { path: `^src/apps/(${[...APPS.slice(index + 1).flat(), ...layer.filter((other) => other !== name)].join('|') || '$^'})/` },
  })),
);

// A unit is a folder of a tier (src/<tier>/<name>/) or a flat tier (company, documents, session); a loose file in a
// tier (src/ground/errors.ts) is a unit of one file, its own face. Other units are used through their face.
const UNIT = '(?:ground|host|engine|capabilities|apps)/[^/]+|company|documents|session';
const notThroughFace = (from, own) => ({
  name: 'through-the-face',
  comment: 'Another folder is used through its public face (its index.ts): export what you need there.',
  severity: 'error',
  from: { path: from },
  to: { path: `^src/(${UNIT})/`, pathNot: [...own, `^src/(${UNIT})/index\\.ts$`] },
});

// A test imports a unit through its face too: only the tests in a unit's mirror (test/unit/<tier>/<unit>/, of a
// flat tier test/unit/company/ …) may reach inside it, as its own files do (docs/architecture.md, Tests).
const testRules = [
  {
    name: 'test-through-the-face',
    comment:
      "A test uses another unit through its face (its index.ts): export what the test needs there if it is part of the unit's public face, or move the test into that unit's mirror under test/unit/.",
    severity: 'error',
    from: { path: `^test/unit/(${UNIT})/` },
    to: { path: `^src/(${UNIT})/`, pathNot: ['^src/$1/', `^src/(${UNIT})/index\\.ts$`] },
  },
  {
    name: 'test-through-the-face',
    comment:
      "A test outside a unit's mirror (test/integration/, test/helpers/, …) uses the unit through its face (its index.ts): export what the test needs there, or move the test into the unit's mirror under test/unit/.",
    severity: 'error',
    from: { path: '^test/', pathNot: `^test/unit/(${UNIT})/` },
    to: { path: `^src/(${UNIT})/`, pathNot: `^src/(${UNIT})/index\\.ts$` },
  },
];

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
      name: 'tier-unknown',
      comment: `src/ holds only its tiers (${TIERS.join(', ')}): put the file in one of them.`,
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${TIERS.join('|')})/` },
      to: {},
    },
    {
      name: 'app-unknown',
      comment: 'Every folder of src/apps/ has a place in APPS in .dependency-cruiser.cjs: add the new one there.',
      severity: 'error',
      from: { path: '^src/apps/', pathNot: `^src/apps/(${APPS.flat().join('|')})/` },
      to: {},
    },
    ...tierRules,
    capabilityRule,
    ...appRules,
    notThroughFace(`^src/(${UNIT})/`, ['^src/$1/']),
    notThroughFace('^src/(ground|host|engine|capabilities|apps)/[^/]+\\.ts$', []),
    ...testRules,
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with; swc reads the imports.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/apps/review/web/', '^test/fixtures/'] },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
