import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from '../dist/duration.js';

test('reads hours and minutes', () => {
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('45m'), 2_700_000);
});

test('refuses what is no duration', () => {
  assert.throws(() => parseDuration('soon'), RangeError);
  assert.throws(() => parseDuration(''), RangeError);
});

test('writes hours and minutes', () => {
  assert.equal(formatDuration(5_400_000), '1h30m');
  assert.equal(formatDuration(7_200_000), '2h');
});
