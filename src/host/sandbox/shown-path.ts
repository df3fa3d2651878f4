/** A path as a line a person reads shows it: one too long to read (a tree made deeper than a path can name) cut in its middle. */
const MAX_SHOWN = 120;

export const shownPath = (relative: string): string =>
  relative.length <= MAX_SHOWN ? relative : `${relative.slice(0, 60)}…${relative.slice(-40)} (${relative.split('/').length} folders deep)`;
