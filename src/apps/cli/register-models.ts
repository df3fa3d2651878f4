/** Declares `sopworks models pull | list | rm | setup`; models-command.ts does them, loaded only then. */
import type { Command } from 'commander';
import { CATALOG } from '../../capabilities/model/local-models/catalog.ts';
import type { Output } from './output.ts';

const actions = () => import('./models-command.ts');

export function registerModelsCommand(program: Command, io: Output, setExitCode: (code: number) => void): void {
  const models = program.command('models').description('local models for --llm local: pull, list, rm (GGUF files in SOPWORKS_MODELS_DIR), setup (the engine)');
  models
    .command('pull')
    .description('download a recommended model by name, or any GGUF file by URL (resumes an interrupted download)')
    .argument('<name-or-url>', `a recommended model (${CATALOG.map((e) => e.name).join(', ')}) or the URL of a .gguf file`)
    .option('--name <name>', "the name to keep a URL's model under (default: its file name)")
    .option('--sha256 <hex>', 'the sha256 the file must have')
    .action(async (what: string, options: unknown) => setExitCode(await (await actions()).pull(what, options, io)));
  models
    .command('list')
    .description('the models in the cache, and the recommended ones with their size and the memory they need')
    .action(async () => setExitCode(await (await actions()).list(io)));
  models
    .command('rm')
    .description('delete a model from the cache (and any partial download of it)')
    .argument('<name>', 'a cached model')
    .action(async (name: string) => setExitCode(await (await actions()).remove(name, io)));
  models
    .command('setup')
    .description("install the local engine (node-llama-cpp, llama.cpp's binaries for this machine's platform and GPU only); --llm local does it on first use")
    .option('--gpu <backend>', 'auto (detected), cuda, vulkan or none (the CPU build only)', 'auto')
    .option('--force', 'install it again', false)
    .action(async (options: unknown) => setExitCode(await (await actions()).setup(options, io)));
}
