'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('..');

test('joins words with dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});

test('drops accents', () => {
  assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
});

test('refuses what is not a string', () => {
  assert.throws(() => slugify(42), TypeError);
});
