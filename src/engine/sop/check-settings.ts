/**
 * A role's settings in company.yaml are read by its SOPs: each name its entry gives is one a `setting`
 * guard (any guard whose `names.readsSetting` says so) of its SOP or per-file SOPs asks about. A setting
 * nothing reads — a typo, or a SOP that lost the switch — would silently do nothing, so it is an error.
 */

import type { RoleSettings, SopFile, Vocabulary } from '../steps/index.ts';
import { type Diagnostic, sopError } from './diagnostic.ts';
import { referencesOf, type YamlPath } from './sop-walk.ts';

export function checkSettings(settings: RoleSettings, sops: readonly SopFile[], where: (at: YamlPath) => string, vocabulary: Vocabulary): Diagnostic[] {
  const read = new Set(
    sops.flatMap((sop) =>
      referencesOf(sop, vocabulary).flatMap((ref) => {
        const param = ref.kind === 'guard' ? vocabulary.guards[ref.type]?.names?.readsSetting : undefined;
        const name = param && ref.params ? ref.params[param] : undefined;
        return typeof name === 'string' ? [name] : [];
      }),
    ),
  );
  return Object.keys(settings)
    .filter((name) => !read.has(name))
    .map((name) =>
      sopError(
        where([name]),
        `no SOP of this role reads the setting "${name}", so it would change nothing; ${read.size > 0 ? `its SOPs read ${[...read].map((n) => `"${n}"`).join(', ')}` : 'its SOPs read no setting'} — fix the name, or remove it`,
      ),
    );
}
