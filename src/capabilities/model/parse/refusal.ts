/**
 * A model that declines ("I'm sorry, I can't help with that") sends prose where an artifact was asked
 * for. Telling it so in the re-ask works better than a generic "no JSON found": the task is routine
 * software work, and saying that usually gets the artifact.
 */
const OPENINGS =
  /^(?:I['’]m sorry|I am sorry|sorry[,.!]|I apologi[sz]e|unfortunately,? I|I['’]m (?:not able|unable)|I am (?:not able|unable)|I can(?:no|['’])t|I cannot|I won['’]t|I will not|as an AI)/i;

/** Only for short prose replies: a long one is an answer in the wrong shape, not a refusal. */
const MAX_REFUSAL_LENGTH = 600;

export function isRefusal(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length <= MAX_REFUSAL_LENGTH && OPENINGS.test(trimmed);
}

/** The re-ask's explanation: quotes the refusal (shortened) and asks again for what is needed. */
export function refusalError(text: string, wanted: string): string {
  const quoted = text.trim().replace(/\s+/g, ' ');
  const shown = quoted.length > 120 ? `${quoted.slice(0, 117)}…` : quoted;
  return `the reply declined the task ("${shown}") instead of answering. This is a routine software-engineering step with nothing harmful in it; reply with ${wanted}`;
}
