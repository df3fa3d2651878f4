/**
 * Test output as the model sees it, without paths of the user's machine. Under bubblewrap the project
 * is mounted at /project; in the weaker modes the runner prints the real folder (a stack frame's
 * `file:///home/ann/work/output/wordfreq/test/a.test.js`, a traceback's `File "/home/ann/…"`, pytest's
 * `rootdir:`) — which tells the model nothing it can use, and tells the endpoint where the user keeps
 * their work. The project folder becomes `.`, the home folder `~`.
 */
import { escapeRegExp } from '../../ground/files/escape-reg-exp.ts';
import os from 'node:os';
import { pathToFileURL } from 'node:url';

export function withoutMachinePaths(text: string, projectDir: string, home: string = os.homedir()): string {
  const project = projectDir.replace(/\/+$/, '');
  const replacements: [string, string][] = [
    [pathToFileURL(project).href, 'file://.'],
    [`file://${project}`, 'file://.'],
    [project, '.'],
  ];
  const homeDir = home.replace(/\/+$/, '');
  // A home of `/` (or none) would turn every absolute path into `~`.
  if (homeDir.length > 1) replacements.push([pathToFileURL(homeDir).href, 'file://~'], [homeDir, '~']);
  let result = text;
  for (const [from, to] of replacements) {
    // Only where the path ends (a separator, a quote, the line's end): /home/ann is not /home/anna.
    result = result.replace(new RegExp(`${escapeRegExp(from)}(?=[/\\\\:'"\`)\\s,]|$)`, 'gm'), to);
  }
  return result;
}
