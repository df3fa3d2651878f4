/** `--llm local[:<name or path>]` → a loaded LocalProvider, or a clear error before anything is written. */
import type { Settings } from '../../settings.ts';
import { resolveLocalModel } from '../../../local-models/resolve-local-model.ts';
import { readLocalSettings } from './local-settings.ts';
import { LocalProvider } from './local-provider.ts';
import type { SopPrompt } from '../../context-plan.ts';

export async function createLocalProvider(
  model: string | null,
  settings: Settings,
  /** The SOP's prompts: the limits are planned for them (context-plan.ts). */
  prompts: readonly SopPrompt[] = [],
  report: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<LocalProvider> {
  const local = readLocalSettings();
  const resolved = await resolveLocalModel(model);
  if (resolved.chosen) report(`local model chosen: ${resolved.chosen}`);
  return LocalProvider.open({
    modelFile: resolved.file,
    settings: local,
    maxOutputTokens: settings.maxOutputTokens,
    maxContinuations: settings.model.maxContinuations,
    explicit: settings.explicit,
    prompts,
    temperature: settings.model.temperature,
    report,
  });
}
