/** `sopworks init`: init-command.ts does it, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

export const initEntry: CommandEntry = {
  name: 'init',
  needsNoSettings: true,
  handler: async (_positionals, options, io) => (await import('../init-command.ts')).initCommand(options, io),
  description: 'write your settings once for every folder (~/.config/sopworks/config.toml): endpoint, model, key variable — checked as doctor checks',
  flags: [
    { syntax: '--base-url <url>', description: 'the endpoint (skip the question): an OpenAI-compatible base URL, or "openai"' },
    { syntax: '--model <name>', description: 'the model (skip the question)' },
    { syntax: '--api-key-env <variable>', description: 'the environment variable that holds the key (skip the question); "none" for none' },
    { syntax: '--no-check', description: 'write without probing the endpoint' },
    { syntax: '--force', description: 'replace an existing config without asking', default: false },
  ],
};
