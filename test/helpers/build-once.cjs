// Mocha's global set-up (.mocharc.cjs `require`): builds dist/ from src/ once before any test runs, unless
// it was built from these very sources already (scripts/build.mjs --if-changed). Tests that start the CLI
// as a child run that JavaScript (test/helpers/built-cli.mjs): the same code as src/, without tsx's loader
// starting in every child (1.4 s of CPU a start on this machine, a few hundred starts a suite).
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

exports.mochaGlobalSetup = function buildOnce() {
  execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'build.mjs'), '--if-changed'], { stdio: ['ignore', 'ignore', 'inherit'] });
};
