/**
 * What a role's model settings in company.yaml would trip on at run time, beyond their shape: a key
 * variable that is not set here, the same model listed twice in one chain. Warnings: a run may still work.
 */
import { type Diagnostic, sopWarning } from '../../engine/sop/index.ts';
import type { RoleModel } from './role-model.ts';

export function roleModelProblems(settings: unknown, where: (at: (string | number)[]) => string): Diagnostic[] {
  const model = settings as RoleModel | undefined;
  if (model === undefined || typeof model === 'string') return [];
  const problems: Diagnostic[] = [];
  const chain = [model, ...(model.fallbacks ?? [])];
  const seen = new Set<string>();
  chain.forEach((entry, i) => {
    const at = i === 0 ? [] : ['fallbacks', i - 1];
    const name = typeof entry === 'string' ? entry : entry.model;
    const url = typeof entry === 'string' ? (model.baseUrl ?? '') : (entry.baseUrl ?? '');
    if (seen.has(`${name} ${url}`))
      problems.push(sopWarning(where(at), `the model "${name}" is listed twice in this role's chain; a fallback to the same model only asks it again`));
    seen.add(`${name} ${url}`);
    if (typeof entry !== 'string' && entry.apiKeyEnv !== undefined && !process.env[entry.apiKeyEnv]?.trim()) {
      problems.push(
        sopWarning(
          where([...at, 'apiKeyEnv']),
          `${entry.apiKeyEnv} is not set in this environment; a run would stop before it starts: set it in the environment or .env`,
        ),
      );
    }
  });
  return problems;
}
