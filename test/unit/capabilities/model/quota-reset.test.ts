/**
 * When a 429 says its limit resets, in each shape real endpoints and proxies use (quota-reset.ts), and what
 * the retry decision makes of it: a wait until then, even for a used-up quota that names its reset.
 */
import assert from 'node:assert/strict';
import { lapse, whenItResets } from '../../../../src/capabilities/model/quota-error.ts';
import { nextMidnightUtc, parseDuration, quotaResetOf } from '../../../../src/capabilities/model/quota-reset.ts';
import { decideRetry } from '../../../../src/capabilities/model/retry-decision.ts';

const NOW = Date.parse('2026-11-27T13:55:00Z');

/** An error as the OpenAI SDK (through LangChain) throws it: status, Headers, the body's error object. */
const rejection = (headers: Record<string, string>, message = 'Rate limit reached', body: Record<string, unknown> = {}) =>
  Object.assign(new Error(`429 ${message}`), { status: 429, headers: new Headers(headers), error: { message, ...body } });

describe('when a 429 says its limit resets', () => {
  const cases: [string, ReturnType<typeof rejection>, number, RegExp][] = [
    ['retry-after-ms (OpenAI)', rejection({ 'retry-after-ms': '90000' }), NOW + 90_000, /retry-after-ms header/],
    ['retry-after in seconds', rejection({ 'retry-after': '360' }), NOW + 360_000, /retry-after header/],
    ['retry-after as an HTTP date', rejection({ 'retry-after': 'Fri, 27 Nov 2026 14:02:00 GMT' }), Date.parse('2026-11-27T14:02:00Z'), /retry-after header/],
    [
      "OpenAI's pair: the reset of the limit that ran out",
      rejection({
        'x-ratelimit-reset-requests': '6m0s',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-tokens': '20ms',
        'x-ratelimit-remaining-tokens': '900',
      }),
      NOW + 360_000,
      /x-ratelimit-reset-requests header/,
    ],
    ['x-ratelimit-reset-tokens alone (Groq)', rejection({ 'x-ratelimit-reset-tokens': '1m30.5s' }), NOW + 90_500, /x-ratelimit-reset-tokens header/],
    [
      'x-ratelimit-reset in epoch milliseconds (OpenRouter)',
      rejection({ 'x-ratelimit-reset': String(NOW + 120_000) }),
      NOW + 120_000,
      /x-ratelimit-reset header/,
    ],
    ['x-ratelimit-reset in epoch seconds', rejection({ 'x-ratelimit-reset': String((NOW + 600_000) / 1000) }), NOW + 600_000, /x-ratelimit-reset header/],
    ['ratelimit-reset in seconds to wait (IETF draft)', rejection({ 'ratelimit-reset': '45' }), NOW + 45_000, /ratelimit-reset header/],
    [
      "Anthropic's reset as a date",
      rejection({ 'anthropic-ratelimit-requests-reset': '2026-11-27T14:00:00Z' }),
      Date.parse('2026-11-27T14:00:00Z'),
      /anthropic-ratelimit-requests-reset header/,
    ],
    [
      "OpenAI's words: try again in 7m12s",
      rejection({}, 'Rate limit reached for gpt-4o-mini on requests per day (RPD): Limit 200, Used 200. Please try again in 7m12s.'),
      NOW + 432_000,
      /error message/,
    ],
    ['retry in 37.5 seconds', rejection({}, 'Resource exhausted. Please retry in 37.5 seconds.'), NOW + 37_500, /error message/],
    [
      "Google's retryDelay in the body's details",
      rejection({}, 'You exceeded your current quota.', { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '52s' }] }),
      NOW + 52_000,
      /error message/,
    ],
    ['a body naming its reset time', rejection({}, 'Quota exceeded; it resets at 2026-11-27T15:00:00Z.'), Date.parse('2026-11-27T15:00:00Z'), /error message/],
    [
      'a daily limit that names no time: the next midnight UTC',
      rejection({}, 'You have reached your daily limit of requests.'),
      Date.parse('2026-11-28T00:00:00Z'),
      /a daily limit, no time given \(midnight UTC assumed\)/,
    ],
  ];
  for (const [shape, error, at, source] of cases) {
    it(shape, () => {
      const reset = quotaResetOf(error, NOW);
      assert.ok(reset, 'a reset is found');
      assert.equal(reset.at, at);
      assert.match(reset.source, source);
    });
  }

  it('says a daily limit is one, and finds nothing in a 429 that names no reset', () => {
    assert.equal(quotaResetOf(rejection({ 'retry-after': '60' }, 'Limit reached on tokens per day (TPD)'), NOW)?.daily, true);
    assert.equal(quotaResetOf(rejection({ 'retry-after': '60' }), NOW)?.daily, false);
    assert.equal(quotaResetOf(rejection({}, 'Too many requests'), NOW), null);
  });

  it('reads durations as endpoints write them', () => {
    assert.equal(parseDuration('6m0s'), 360_000);
    assert.equal(parseDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseDuration('20ms'), 20);
    assert.equal(parseDuration('2 minutes 5 seconds'), 125_000);
    assert.equal(parseDuration('soon'), null);
    assert.equal(nextMidnightUtc(Date.parse('2026-12-31T23:59:59Z')), Date.parse('2027-01-01T00:00:00Z'));
  });

  it('the retry decision waits until the reset, a used-up quota too when it names its reset', () => {
    const limited = decideRetry(rejection({ 'x-ratelimit-reset-requests': '6m0s' }), NOW);
    assert.ok(limited.retry);
    assert.equal(limited.retryAfterMs, 360_000);
    assert.equal(limited.reset?.at, NOW + 360_000);
    const quota = Object.assign(rejection({}, 'You exceeded your current quota. Please try again in 20m.'), { code: 'insufficient_quota' });
    const decided = decideRetry(quota, NOW);
    assert.ok(decided.retry);
    assert.equal(decided.reason, '429: the quota is used up');
    assert.equal(decided.retryAfterMs, 1_200_000);
    const billing = Object.assign(rejection({}, 'You exceeded your current quota, please check your plan and billing details.'), {
      code: 'insufficient_quota',
    });
    assert.deepEqual(decideRetry(billing, NOW), { retry: false, reason: '429: the quota is used up' }, 'billing with no reset: waiting does not help');
  });

  it('says when, in UTC and from now', () => {
    assert.equal(whenItResets(NOW + 432_000, NOW), '14:02:12 UTC (in 7 min)');
    assert.equal(whenItResets(Date.parse('2026-11-28T00:00:00Z'), NOW), '2026-11-28 00:00:00 UTC (in 10 h 5 min)');
    assert.equal(lapse(45_000), '45 s');
  });
});
