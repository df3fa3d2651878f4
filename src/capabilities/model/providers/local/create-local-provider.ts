/** `--llm local[:<name or path>]` → a loaded LocalProvider, or a clear error before anything is written. */

import { cleanLine } from '../../../../ground/terminal-text.ts';
import type { SopPrompt } from '../../context-plan.ts';
import { resolveLocalModel } from '../../local-models/resolve-local-model.ts';
import type { Settings } from '../../settings.ts';
import { detectGpu } from './detect-gpu.ts';
import { engineDir } from './engine-dir.ts';
import { setUpEngine } from './install-engine.ts';
import { loadEngine } from './load-engine.ts';
import { LocalProvider } from './local-provider.ts';
import { readLocalSettings } from './local-settings.ts';

export async function createLocalProvider(
  model: string | null,
  settings: Settings,
  /** The SOP's prompts: the limits are planned for them (context-plan.ts). */
  prompts: readonly SopPrompt[] = [],
  report: (line: string) => void = (line) => process.stderr.write(`${cleanLine(line)}\n`),
): Promise<LocalProvider> {
  const local = readLocalSettings();
  const resolved = await resolveLocalModel(model);
  if (resolved.chosen) report(`local model chosen: ${resolved.chosen}`);
  // Installed on first use when it is nowhere yet (announced: it is a download of some 70 MB or more).
  const engine = await loadEngine({
    dir: engineDir(),
    install: async (dir) => void (await setUpEngine(dir, local.gpu === 'off' ? 'none' : detectGpu(), report)),
  });
  return LocalProvider.open({
    engine,
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
