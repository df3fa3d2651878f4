import { test } from 'node:test';
import assert from 'node:assert/strict';
import { greet, shout } from '../src/greet.js';
import { ledgerTotal } from '../src/ledger.js';

test('greet says hello', () => {
  assert.equal(greet(' Ada '), 'Hello, Ada!');
});

test('greet refuses an empty name', () => {
  assert.throws(() => greet(''), TypeError);
});

test('shout upper-cases', () => {
  assert.equal(shout('hi'), 'HI');
});

test('ledgerTotal adds the amounts', () => {
  assert.equal(ledgerTotal([{ amount: 2 }, { amount: 3 }]), 5);
});
