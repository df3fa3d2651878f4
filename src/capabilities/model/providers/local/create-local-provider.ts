/** `--llm local[:<name or path>]` → a loaded LocalProvider, or a clear error before anything is written. */
import type { Settings } from '../../settings.ts';
import { resolveLocalModel } from '../../local-models/resolve-local-model.ts';
import { readLocalSettings } from './local-settings.ts';
import { LocalProvider } from './local-provider.ts';
import { loadEngine } from './load-engine.ts';
import { engineDir } from './engine-dir.ts';
import { detectGpu } from './detect-gpu.ts';
import { setUpEngine } from './install-engine.ts';

export async function createLocalProvider(
  model: string | null,
  settings: Settings,
  report: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
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
    temperature: settings.model.temperature,
    report,
  });
}
