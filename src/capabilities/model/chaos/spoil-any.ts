/**
 * What any reply can suffer, whatever it holds: reasoning before it (kept meaning: the answer follows),
 * a cut at the output limit, a refusal, nothing at all (all re-asked). Refusals and reasoning are worded
 * as real models word them.
 */

import type { CleanReply } from './clean-reply.ts';
import type { Draws } from './draws.ts';

export interface SpoiledText {
  text: string;
  /** How the reply ended; `length`: cut off at the output limit. Default `stop`. */
  finishReason?: string;
}
export type AnySpoiler = (reply: CleanReply, draws: Draws) => SpoiledText | null;

const REASONING = [
  'Okay, let me think about what is being asked. The request names the artifact and its format; I should follow the schema exactly and keep it concise.',
  'First I will check the requirements again. Then I will write the answer in the requested format, nothing else.',
  'The user wants the file written in full. Let me make sure every function is implemented and nothing is left out.',
];

export const thinkBlock: AnySpoiler = (reply, draws) => {
  const reasoning = draws.pick(REASONING);
  // Some servers drop the opening tag (the chat template adds it): the closing one still ends the reasoning.
  const opening = draws.next() < 0.7 ? '<think>\n' : '';
  return { text: `${opening}${reasoning}\n</think>\n\n${reply.text}` };
};

export const cutOff: AnySpoiler = (reply, draws) => {
  if (reply.text.length < 20) return null;
  const at = Math.floor(reply.text.length * (0.35 + 0.5 * draws.next()));
  return { text: reply.text.slice(0, at), finishReason: 'length' };
};

const REFUSALS = [
  "I'm sorry, but I can't help with that request.",
  'I apologize, but I cannot assist with generating this content.',
  "I'm unable to complete this task as described.",
  'Sorry, I cannot provide that.',
];

export const refusal: AnySpoiler = (_reply, draws) => ({ text: draws.pick(REFUSALS) });

export const emptyReply: AnySpoiler = (_reply, draws) => ({ text: draws.pick(['', '\n', '  \n\n']) });

/** Search/replace blocks introduced in prose, as models introduce them. */
export const proseBeforeEdits: AnySpoiler = (reply, draws) =>
  reply.kind !== 'edits' ? null : { text: `${draws.pick(['Here are the changes:', `I'll update ${reply.path} as follows.`])}\n\n${reply.text}\n\nThat's all.` };
