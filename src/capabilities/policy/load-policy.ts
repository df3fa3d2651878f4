/**
 * Loads the authorization policy next to company.yaml: <sops>/policy.yaml, validated like the SOPs
 * (every problem as file:line:column). A folder without one gets the documented default policy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Diagnostic, sopError } from '../../engine/sop/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { readYaml, validateYaml } from '../../ground/files/index.ts';
import { DEFAULT_POLICY, type Policy, PolicyFile } from './policy-file.ts';

export const POLICY_FILE = 'policy.yaml';

/** The policy of a --sops folder; throws SOP_INVALID naming file:line:column of every problem. */
export async function loadPolicy(sopsDir: string): Promise<Policy> {
  const file = path.join(sopsDir, POLICY_FILE);
  if (!fs.existsSync(file)) return DEFAULT_POLICY;
  const source = await readYaml(file);
  return { ...validateYaml(source, PolicyFile), source: file };
}

/** The problems of a --sops folder's policy, one "file:line:column: …" line each; empty when it is valid. */
export async function policyProblems(sopsDir: string): Promise<string[]> {
  try {
    await loadPolicy(sopsDir);
    return [];
  } catch (error) {
    if (SopworksError.isInstance(error) && error.code === 'SOP_INVALID') return error.message.split('\n');
    throw error;
  }
}

/** The policy's problems as `sop validate` reports them, each at its file:line:column, and whether a policy file was read. */
export async function policyDiagnostics(sopsDir: string): Promise<{ diagnostics: Diagnostic[]; files: number }> {
  const file = path.join(sopsDir, POLICY_FILE);
  const diagnostics = (await policyProblems(sopsDir)).map((problem) => {
    const located = /^(.+?:\d+:\d+): ([\s\S]*)$/.exec(problem);
    return sopError(located ? located[1]! : `${file}:1:1`, located ? located[2]! : problem);
  });
  return { diagnostics, files: fs.existsSync(file) ? 1 : 0 };
}
