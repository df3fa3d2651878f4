/**
 * What went wrong in an install, read from npm's and pip's own output: the packages it names as
 * missing or unresolvable, a registry that could not be reached or whose certificate was not trusted,
 * and — always, when it failed — the installer's own error lines, quoted, so the report says what npm
 * or pip said rather than only an exit code.
 */
export interface InstallFailure {
  name: string;
  message: string;
}

/** npm's `npm error …` (and older `npm ERR! …`) and pip's `ERROR: …` lines, without npm's log-file trailer. */
export function installerErrorLines(output: string, max = 8): string[] {
  const lines = output
    .split('\n')
    .map((line) => line.trimEnd())
    // …and an error Node itself printed when the installer crashed ("Error [ERR_…]: …").
    .filter((line) => /^(npm (error|ERR!)|ERROR:|error:|sopworks egress proxy:|(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: )/.test(line.trim()))
    .filter((line) => !/A complete log of this run|^npm (error|ERR!)\s*$/.test(line.trim()));
  const unique = [...new Set(lines)];
  return unique.length > max ? [...unique.slice(0, max - 1), `… ${unique.length - max + 1} more`] : unique;
}

/**
 * npm's ERESOLVE, as a person can act on it: which package needs which peer, what is installed in its
 * place and who asked for that, and what to do. Null when the output has none.
 */
export function peerConflict(output: string): InstallFailure | null {
  if (!/\bERESOLVE\b/.test(output)) return null;
  const text = output
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!) ?/, ''))
    .join('\n');
  const found = /^Found: (\S+)\n(?:\S.*\n)?\s+(\S+@"[^"]*") from (.+)$/m.exec(text);
  const needed = /^Could not resolve dependency:\n(peer )?(\S+@"[^"]*") from (\S+)/m.exec(text);
  const conflicting = /^Conflicting peer dependency: (\S+)/m.exec(text)?.[1];
  if (!needed) {
    return {
      name: 'install: peer conflict',
      message:
        "npm could not resolve the dependency tree (ERESOLVE): two packages ask for versions of a third that no version satisfies (see the installer's lines)",
    };
  }
  const [, peer, wanted = '', dependent = ''] = needed;
  const wantedName = wanted.replace(/@"[^"]*"$/, '');
  const have = found ? `${found[1]} is what the project gets, for ${found[2]} from ${found[3]!.trim()}` : `${conflicting ?? wantedName} conflicts with it`;
  return {
    name: `install: ${wantedName} (${peer ? 'peer ' : ''}of ${dependent})`,
    message:
      `npm could not resolve a ${peer ? 'peer ' : ''}dependency (ERESOLVE): ${dependent} needs ${wanted}, but ${have}. ` +
      `Make them agree in package.json — a version of ${dependent.replace(/@[^@]*$/, '')} whose range takes what the project has, or ${wantedName} within ${wanted.slice(wantedName.length + 1)} — ` +
      'or, if the repository is installed with --legacy-peer-deps, say so in its .npmrc (legacy-peer-deps=true), which sopworks honours',
  };
}

export function installFailures(output: string): InstallFailure[] {
  const failures: InstallFailure[] = [];
  const add = (name: string, message: string) => {
    if (!failures.some((f) => f.name === name)) failures.push({ name, message });
  };
  const conflict = peerConflict(output);
  if (conflict) add(conflict.name, conflict.message);
  for (const m of output.matchAll(/'([^'\s]+)' is not in this registry/g)) add(`install: ${m[1]}`, `the registry has no such package (${m[0]})`);
  for (const m of output.matchAll(/No matching version found for (\S+)\./g)) add(`install: ${m[1]}`, `no version of the package matches the range (${m[0]})`);
  for (const m of output.matchAll(/No matching distribution found for (\S+)/g)) add(`install: ${m[1]}`, `no version of the package matches (${m[0]})`);
  for (const m of output.matchAll(/(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN)[^\n]*/g))
    add('install: the registry', `the registry could not be reached (${m[0].trim()})`);
  if (/Failed to establish a new connection|Connection refused/.test(output)) add('install: the registry', 'the package index could not be reached');
  const upstream = /sopworks egress proxy: could not reach (\S+ \S+): ([^\n]*)/.exec(output);
  if (upstream) add('install: the registry', `the registry could not be reached from this machine (${upstream[1]}: ${upstream[2]!.trim()})`);
  const refused = /sopworks egress proxy: refused (\S+ \S+): ([^\n]*)/.exec(output);
  if (refused) {
    add(
      'install: the egress proxy',
      `the install asked for ${refused[1]}, which the egress proxy does not let through (${refused[2]!.trim()}): it forwards only the configured registry's package metadata and files (docs/sandbox.md, "The install step's threat model")`,
    );
  }
  const engine = nodeTooOld(output);
  if (engine) add(engine.name, engine.message);
  if (/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT|CERTIFICATE_VERIFY_FAILED|unable to verify the first certificate/.test(output)) {
    add('install: the registry', "the registry's certificate is not trusted (see the installer's lines)");
  }
  // Node's permission model (the weaker sandbox, without bubblewrap) forbids symlinks, and npm links each
  // package's commands into node_modules/.bin: what it says is Node's, so say what to do about it.
  if (/fs\.symlink API requires full fs\.read and fs\.write permissions/.test(output)) {
    add(
      'install: the sandbox',
      "npm could not link the packages' commands under Node's permission model (the weaker sandbox, used because bubblewrap is not installed): install bubblewrap (see docs/sandbox.md)",
    );
  }
  return failures;
}

/**
 * A package manager newer than this Node.js: pnpm and yarn print "This version of pnpm requires at least
 * Node.js v22.13" and "The current version of Node.js is v20.20.2", then fail on whatever they lack.
 */
function nodeTooOld(output: string): InstallFailure | null {
  const needs = /This version of (\S+) requires at least Node\.js v?(\S+)/.exec(output);
  if (!needs) return null;
  const [, manager, wanted] = needs;
  const version = /installed with \S+ (\S+),/.exec(output)?.[1];
  const current = /The current version of Node\.js is v?(\S+)/.exec(output)?.[1] ?? process.versions.node;
  return {
    name: `install: ${manager}`,
    message:
      `${manager}${version ? ` ${version}` : ''}, the version the repository's packageManager names, needs Node.js ${wanted} or newer, and sopworks runs on Node.js ${current} here: ` +
      `run sopworks under Node.js ${wanted} or newer, or name a ${manager} version that supports Node.js ${current} in package.json's packageManager`,
  };
}

/** Failures of an install that did not succeed: what is recognised, then the installer's own lines. */
export function describeInstallFailure(output: string, exitCode: number | null, timedOut: boolean): InstallFailure[] {
  const failures = installFailures(output);
  const said = installerErrorLines(output);
  // Its first line on the message's own: a message cut at its first line never ends on "said:".
  const quoted = said.length > 0 ? `; the installer said: ${said.join('\n')}` : '';
  if (failures.length === 0) {
    failures.push({ name: 'install', message: `${timedOut ? 'the install timed out' : `the install exited with code ${exitCode}`}${quoted}` });
  } else if (quoted) {
    failures[0] = { ...failures[0]!, message: `${failures[0]!.message}${quoted}` };
  }
  return failures;
}
