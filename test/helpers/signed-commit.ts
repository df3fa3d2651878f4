/**
 * A commit that carries a signature of the given format on top of HEAD, written as a raw object: git
 * picks the verifier by the signature's armour (`gpg.<format>.program`), and a repository whose config
 * sets `log.showSignature` makes a plain `git log` run it. The signature itself is nonsense: what
 * matters is whether a verifier is run at all.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

const ARMOUR = {
  x509: ['-----BEGIN SIGNED MESSAGE-----', 'MIIB', '-----END SIGNED MESSAGE-----'],
  ssh: ['-----BEGIN SSH SIGNATURE-----', 'U1NIU0lH', '-----END SSH SIGNATURE-----'],
  openpgp: ['-----BEGIN PGP SIGNATURE-----', '', 'iQEz', '-----END PGP SIGNATURE-----'],
};

export type SignatureFormat = keyof typeof ARMOUR;

export async function signedCommit(repo: string, format: SignatureFormat, message: string): Promise<string> {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString()
      .trim();
  const [tree, parent] = [git('rev-parse', 'HEAD^{tree}'), git('rev-parse', 'HEAD')];
  const [first, ...rest] = ARMOUR[format];
  const text = `tree ${tree}\nparent ${parent}\nauthor u <u@x> 1700000000 +0000\ncommitter u <u@x> 1700000000 +0000\ngpgsig ${first}\n${rest.map((l) => ` ${l}`).join('\n')}\n\n${message}\n`;
  const file = path.join(repo, '..', `${format}-${parent.slice(0, 8)}.commit`);
  await fs.writeFile(file, text);
  const hash = git('hash-object', '-t', 'commit', '-w', file);
  await fs.rm(file);
  git('update-ref', 'HEAD', hash);
  return hash;
}
