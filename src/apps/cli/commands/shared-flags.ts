/**
 * Flags several commands besides run, change and resume declare with the same words: one definition
 * each, so their help stays alike. Those three take theirs from the session's requests (src/session/).
 */
import { DEFAULT_ROLES, DEFAULT_SOPS } from '../../../ground/package-root.ts';
import type { FlagEntry } from '../command-table.ts';

export const sopsFlag = (description = 'folder of company.yaml and the SOP files', folder = DEFAULT_SOPS): FlagEntry => ({
  syntax: '--sops <dir>',
  description,
  default: folder,
});

export const rolesFlag: FlagEntry = { syntax: '--roles <dir>', description: 'folder of role profiles and prompt templates', default: DEFAULT_ROLES };

export const modelForFlag = (description: string): FlagEntry => ({ syntax: '--model-for <role=model>', description, repeatable: true });

export const allowUnsandboxedFlag = (description: string): FlagEntry => ({ syntax: '--allow-unsandboxed', description, default: false });
