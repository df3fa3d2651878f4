/** Sent after a reply cut off at the output limit; the answer is appended to what came before. */
export const CONTINUE_PROMPT =
  'Your reply was cut off at the output limit. Continue exactly where it stopped — do not repeat anything already written, add no preamble and no closing remarks; send only the rest.';
