/**
 * A run's requests as a cache sees them (bench/cache-requests.ts): the tokens of each request's lines that
 * no earlier request carried, which no layout of the prompts can have served.
 */
import assert from 'node:assert/strict';
import { encode } from 'gpt-tokenizer';
import { cacheRequestsOf, type SentRequest } from '../../../bench/cache-requests.ts';

const line = (text: string): number => encode(`${text}\n`).length;
const sent = (prompt: string, reply: string, sentAt: number, doneAt: number): SentRequest => ({
  role: 'engineer',
  messages: [{ role: 'user', content: prompt }],
  reply,
  sentAt,
  doneAt,
});

describe('the requests a cache sees', () => {
  it('counts the lines each request shows for the first time, against earlier prompts and the replies received before it', () => {
    const write = sent('The documents\nWrite the parser.', 'export function parse() {}', 0, 10);
    const early = sent('The documents\nexport function parse() {}', '{}', 5, 20);
    const review = sent('Review it.\nexport function parse() {}\nThe documents', '{}', 30, 40);
    const [a, b, c] = cacheRequestsOf([review, early, write]);
    assert.deepEqual(a!.firstShown, {
      prompts: line('The documents') + line('Write the parser.'),
      promptsAndReplies: line('The documents') + line('Write the parser.'),
    });
    // Sent before the write's reply came: the file's line is new to it either way.
    assert.deepEqual(b!.firstShown, { prompts: line('export function parse() {}'), promptsAndReplies: line('export function parse() {}') });
    // In any order, every line but the instruction was carried before.
    assert.deepEqual(c!.firstShown, { prompts: line('Review it.'), promptsAndReplies: line('Review it.') });
  });

  it('counts a line of a reply as carried once the reply came, for the caches that keep replies', () => {
    const write = sent('The documents\nWrite the parser.', 'export function parse() {}', 0, 10);
    const review = sent('The documents\nexport function parse() {}', '{}', 30, 40);
    const [, second] = cacheRequestsOf([write, review]);
    assert.deepEqual(second!.firstShown, { prompts: line('export function parse() {}'), promptsAndReplies: 0 });
  });
});
