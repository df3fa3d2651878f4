/**
 * `sopworks sop validate | graph | init | vocabulary`; sop-command.ts does each, loaded only when one
 * runs (the SOP machinery is not needed for `--help`).
 */

import { DEFAULT_ROLES, DEFAULT_SOPS } from '../../../ground/package-root.ts';
import type { CommandEntry } from '../command-table.ts';
import { rolesFlag, sopsFlag } from './shared-flags.ts';

const actions = () => import('../sop-command.ts');

export const sopEntry: CommandEntry = {
  name: 'sop',
  needsNoSettings: true,
  description: 'check, draw and copy the SOP and prompt files (sops/, roles/)',
  subcommands: [
    {
      name: 'validate',
      description: 'check everything a run would trip on; exit 0 when there is no error, 1 when there is',
      flags: [sopsFlag(), rolesFlag],
      handler: async (_positionals, options, io) => (await actions()).validateSops(options, io),
    },
    {
      name: 'graph',
      description: "draw the company's message flow and each role's SOP (mermaid), or one role's SOP with --role",
      flags: [
        sopsFlag(),
        rolesFlag,
        { syntax: '--role <id>', description: "only this role's SOP, as a bare mermaid stateDiagram-v2" },
        { syntax: '--out <file>', description: 'write to this file instead of printing' },
      ],
      handler: async (_positionals, options, io) => (await actions()).graphSops(options, io),
    },
    {
      name: 'init',
      description: 'write DIR/sops and DIR/roles: a copy of the defaults to edit',
      arguments: [{ syntax: '<dir>', description: 'the folder to write into (created if missing)' }],
      flags: [{ syntax: '--force', description: 'overwrite files that already exist there', default: false }],
      handler: async ([dir], options, io) => (await actions()).initSops(dir as string, options, { sops: DEFAULT_SOPS, roles: DEFAULT_ROLES }, io),
    },
    {
      name: 'vocabulary',
      description: 'print the actions, guards, steps, views and message types a SOP can use (Markdown)',
      handler: async (_positionals, _options, io) => (await actions()).printVocabulary(io),
    },
  ],
};
