/**
 * `--chaos <rate>` and `--seed <n>`: spoil that share of a scripted scenario's replies the ways real
 * models do (src/capabilities/model/chaos/). Only a scenario can be spoiled on purpose: a real model
 * does that on its own.
 */
import { SopworksError } from '../../ground/errors.ts';
import { DEFAULT_CHAOS_SEED, type ChaosSettings } from '../../capabilities/model/index.ts';
import type { LlmChoice } from '../../capabilities/model/index.ts';
import { numberFlag } from './parse-options.ts';

/** The two flags as commander hands them over (text), checked. */
export const ChaosOptions = {
  chaos: numberFlag(
    (rate, text) => text.trim() !== '' && Number.isFinite(rate) && rate >= 0 && rate <= 1,
    'must be the share of replies to spoil, from 0 to 1 (e.g. 0.3)',
  ),
  seed: numberFlag((seed, text) => text.trim() !== '' && Number.isSafeInteger(seed) && seed >= 0, 'must be a whole number from 0'),
};

/** The chaos asked for, or null; `--seed` alone is refused, as it would change nothing. */
export function chaosOf(options: { chaos: number | null; seed: number | null }): ChaosSettings | null {
  if (options.chaos === null) {
    if (options.seed !== null) {
      throw new SopworksError('USAGE', '--seed chooses which replies --chaos spoils; without --chaos it changes nothing.', {
        hint: 'Add --chaos <rate>, e.g. --chaos 0.3 --seed 7.',
      });
    }
    return null;
  }
  return { rate: options.chaos, seed: options.seed ?? DEFAULT_CHAOS_SEED };
}

/** The model choice with the chaos asked for; refused for anything but a scripted scenario. */
export function withChaos(choice: LlmChoice, chaos: ChaosSettings | null): LlmChoice {
  if (chaos === null) return choice;
  if (choice.kind !== 'scripted') {
    throw new SopworksError('USAGE', `--chaos spoils a scripted scenario's replies; --llm ${choice.kind} is a real model.`, {
      hint: 'Use --llm scripted:<scenario file> (e.g. examples/wordfreq.yaml), or drop --chaos.',
    });
  }
  return { ...choice, chaos };
}
