/**
 * `sopworks doctor --llm local[:<name or path>]`: the in-process engine checked as a run would use it —
 * the model file found, the engine found (not installed: doctor only looks), the model loaded on this
 * machine, and a short real generation with its latency. Reported in doctor's own shape.
 */
import {
  type Check,
  type Engine,
  engineDir,
  LocalProvider,
  loadEngine,
  type ModelReport,
  readLocalSettings,
  resolveLocalModel,
} from '../../capabilities/model/index.ts';
import { describeError } from '../../ground/errors.ts';

const ROLES = ['all roles'];

export async function checkLocalModel(model: string | null, report: (line: string) => void): Promise<ModelReport> {
  const checks: Check[] = [];
  const done = (works: boolean, shown: string): ModelReport => ({
    baseUrl: 'this process (llama.cpp)',
    model: shown,
    roles: ROLES,
    checks,
    works,
    structuredOutput: null,
    advice: [],
  });
  let file: string;
  try {
    file = (await resolveLocalModel(model)).file;
    checks.push({ name: 'model file', status: 'ok', detail: file });
  } catch (error) {
    checks.push({ name: 'model file', status: 'fail', detail: describeError(error).replace(/\n\s*/g, ' — ') });
    return done(false, model ?? '(none chosen)');
  }
  let engine: Engine;
  try {
    engine = await loadEngine({ dir: engineDir(), install: null });
    checks.push({ name: 'engine', status: 'ok', detail: 'node-llama-cpp loads' });
  } catch (error) {
    checks.push({ name: 'engine', status: 'fail', detail: describeError(error).replace(/\n\s*/g, ' — ') });
    return done(false, file);
  }
  const started = performance.now();
  let provider: LocalProvider;
  try {
    provider = await LocalProvider.open({
      engine,
      modelFile: file,
      settings: readLocalSettings(),
      maxOutputTokens: 8,
      maxContinuations: 0,
      temperature: 0,
      report,
    });
    checks.push({ name: 'loads', status: 'ok', detail: `in ${((performance.now() - started) / 1000).toFixed(1)} s` });
  } catch (error) {
    checks.push({ name: 'loads', status: 'fail', detail: describeError(error).replace(/\n\s*/g, ' — ') });
    return done(false, file);
  }
  try {
    const asked = performance.now();
    const reply = await provider.complete({
      call: { role: 'doctor', action: 'check', key: null },
      messages: [{ role: 'user', content: 'Reply with the word OK.' }],
      jsonSchema: null,
    });
    const ms = Math.round(performance.now() - asked);
    checks.push({ name: 'generates', status: 'ok', detail: `${reply.usage?.completionTokens ?? '?'} tokens in ${ms} ms` });
    return done(true, file);
  } catch (error) {
    checks.push({ name: 'generates', status: 'fail', detail: describeError(error).replace(/\n\s*/g, ' — ') });
    return done(false, file);
  } finally {
    await provider.close();
  }
}
