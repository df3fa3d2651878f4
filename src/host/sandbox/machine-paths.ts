/**
 * Generated code's output without paths of the machine it ran on, so that what QA reads, what its
 * reports commit and each round's failure fingerprint are the same in every sandbox mode and on every
 * machine:
 *
 * - `sandboxView`: outside bubblewrap the command ran in a scratch copy (`…/sopworks-work-…/project`)
 *   with a private temp folder and HOME; its output is rewritten to the paths bubblewrap shows
 *   (`/project`, `/home/sandbox`, `/tmp`), so every mode's output reads alike;
 * - `withoutMachinePaths`: the project — `/project`, or its real folder, which a runner may print — becomes
 *   `.`, the user's home `~`. The real folder tells the model nothing it can use, and tells the endpoint
 *   where the user keeps their work.
 */

import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { escapeRegExp } from '../../ground/files/index.ts';
import { SANDBOX_HOME, SANDBOX_PROJECT, SANDBOX_TMP } from './bubblewrap.ts';

/** Only a whole path: not inside a longer one (`/home/ann` is not in `/home/anna` nor in `/x/home/ann`). */
function replacePaths(text: string, replacements: readonly (readonly [string, string])[]): string {
  let result = text;
  for (const [from, to] of replacements) {
    if (from.length <= 1) continue;
    result = result.replace(new RegExp(`(?<![\\w.~/-])${escapeRegExp(from)}(?=[/\\\\:'"\`)\\s,;]|$)`, 'gm'), to);
  }
  return result;
}

/** Each folder as a file URL and as a path (the URL first: it holds the path). */
const bothForms = (folders: readonly (readonly [string, string])[]): [string, string][] =>
  folders.flatMap(([from, to]) => {
    const folder = from.replace(/\/+$/, '');
    const url = pathToFileURL(folder).href;
    return [
      [url, to.startsWith('/') ? pathToFileURL(to).href : `file://${to}`],
      [`file://${folder}`, to.startsWith('/') ? pathToFileURL(to).href : `file://${to}`],
      [folder, to],
    ] as [string, string][];
  });

export interface HostPlaces {
  /** Where the command ran: the scratch copy of the project (its path as made, and its real path). */
  workDirs: readonly string[];
  /** The private temp folder holding its `home` and `tmp` (both forms of its path). */
  tmpDirs: readonly string[];
}

/** Output of a command run outside bubblewrap, with the paths bubblewrap would have shown. */
export function sandboxView(text: string, places: HostPlaces): string {
  const pairs: [string, string][] = [];
  for (const work of places.workDirs) pairs.push([work, SANDBOX_PROJECT]);
  for (const tmp of places.tmpDirs) pairs.push([`${tmp}/home`, SANDBOX_HOME], [`${tmp}/tmp`, SANDBOX_TMP], [tmp, SANDBOX_TMP]);
  return replacePaths(text, bothForms(pairs));
}

export function withoutMachinePaths(text: string, projectDir: string, home: string = os.homedir()): string {
  const pairs: [string, string][] = [
    [projectDir, '.'],
    [SANDBOX_PROJECT, '.'],
  ];
  // A home of `/` (or none) would turn every absolute path into `~`.
  if (home.replace(/\/+$/, '').length > 1) pairs.push([home, '~']);
  return replacePaths(text, bothForms(pairs));
}
