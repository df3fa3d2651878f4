/**
 * One name per model, however it was named: a scenario or a model file by its absolute path (typed
 * relative at the start of a run, it is absolute in run.json and on resume), an endpoint without a
 * trailing slash. Usage per model is counted under this name, so a resumed run counts one model once.
 */
import path from 'node:path';

export function modelIdentity(label: string, cwd: string = process.cwd()): string {
  const file = /^(scripted|local):(.+)$/.exec(label);
  // A local model named by its cache name stays a name; a path (or a .gguf file) is resolved.
  if (file && (file[1] === 'scripted' || /[\\/]|\.gguf$/i.test(file[2]!))) return `${file[1]}:${path.resolve(cwd, file[2]!)}`;
  const endpoint = /^(.+ at \S+?)\/+$/.exec(label);
  return endpoint ? endpoint[1]! : label;
}
