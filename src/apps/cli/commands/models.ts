/** `sopworks models pull | list | rm | setup`; models-command.ts does them, loaded only then. */
import type { CommandEntry } from '../command-table.ts';

const actions = () => import('../models-command.ts');

export const modelsEntry: CommandEntry = {
  name: 'models',
  description: 'local models for --llm local: pull, list, rm (GGUF files in SOPWORKS_MODELS_DIR), setup (the engine)',
  subcommands: [
    {
      name: 'pull',
      description: 'download a recommended model by name, or any GGUF file by URL (resumes an interrupted download)',
      arguments: [{ syntax: '<name-or-url>', description: 'a recommended model (`sopworks models list` names them) or the URL of a .gguf file' }],
      flags: [
        { syntax: '--name <name>', description: "the name to keep a URL's model under (default: its file name)" },
        { syntax: '--sha256 <hex>', description: 'the sha256 the file must have' },
      ],
      handler: async ([what], options, io) => (await actions()).pull(what as string, options, io),
    },
    {
      name: 'list',
      description: 'the models in the cache, and the recommended ones with their size and the memory they need',
      handler: async (_positionals, _options, io) => (await actions()).list(io),
    },
    {
      name: 'rm',
      description: 'delete a model from the cache (and any partial download of it)',
      arguments: [{ syntax: '<name>', description: 'a cached model' }],
      handler: async ([name], _options, io) => (await actions()).remove(name as string, io),
    },
    {
      name: 'setup',
      description: "install the local engine (node-llama-cpp, llama.cpp's binaries for this machine's platform and GPU only); --llm local does it on first use",
      flags: [
        { syntax: '--gpu <backend>', description: 'auto (detected), cuda, vulkan or none (the CPU build only)', default: 'auto' },
        { syntax: '--force', description: 'install it again', default: false },
      ],
      handler: async (_positionals, options, io) => (await actions()).setup(options, io),
    },
  ],
};
