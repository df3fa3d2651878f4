/**
 * Each role of a run with its SOP drawn as a state diagram, its current (or last) state marked. The
 * SOPs are loaded from the folders the run recorded in run.json; the state from `.sopworks/roles/`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadCompany } from '../../company/index.ts';
import type { CompanyDefinition } from '../../engine/run/index.ts';
import { sopStateDiagram } from '../../engine/sop/index.ts';
import type { SopFile, StateNodeConfig } from '../../engine/steps/index.ts';
import { describeError } from '../../ground/errors.ts';
import type { RoleState, RunInfo } from './run-files.ts';
import { visitedStates } from './sop-path.ts';
import { describeStep } from './state-step.ts';

export interface RoleView {
  id: string;
  title: string | null;
  watches: string[];
  /** From the role's state file; null when the run recorded none (yet). */
  state: string | null;
  status: string | null;
  updatedAt: string | null;
  /** What the role does in that state, in a few words ("ask write_prd", "waiting for TaskGraph"); null when unknown. */
  step: string | null;
  /** Mermaid stateDiagram-v2 text; null when the role's SOP could not be loaded. */
  diagram: string | null;
  /** The state marked in the diagram (the recorded state, when the SOP has it). */
  marked: string | null;
  /** States the run passed through (its model calls say so), marked apart. */
  visited: string[];
  /** The per-file SOPs the role ran (`eachFile`), each drawn with the states the run passed through. */
  fileSops: { name: string; diagram: string; visited: string[] }[];
}

/** Whether a dotted state path ("review.deciding") names a state of the SOP. */
export function sopHasState(sop: SopFile, dotted: string): boolean {
  let states: Record<string, StateNodeConfig> | undefined = sop.states;
  for (const name of dotted.split('.')) {
    const node: StateNodeConfig | undefined = states?.[name];
    if (!node) return false;
    states = node.states;
  }
  return true;
}

/** Sizes and times of the SOP files and role profiles: when none changed, the loaded company still holds. */
async function companySignature(sopsDir: string, rolesDir: string): Promise<string> {
  const stamp = async (file: string) => {
    const stat = await fs.stat(file).catch(() => null);
    return stat ? `${file}:${stat.size}:${stat.mtimeMs}` : `${file}:-`;
  };
  const sops = (await fs.readdir(sopsDir).catch(() => [])).map((name) => path.join(sopsDir, name));
  // Every profile of a role (role.yaml, and those company.yaml may name instead: change.yaml).
  const roleDirs = (await fs.readdir(rolesDir).catch(() => [])).map((name) => path.join(rolesDir, name));
  const profiles = (
    await Promise.all(roleDirs.map(async (dir) => (await fs.readdir(dir).catch(() => [])).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join(dir, f))))
  ).flat();
  return (await Promise.all([...sops, ...profiles].sort().map(stamp))).join('\n');
}

/** A viewer redraws a run on every change; loading and checking its SOPs each time would dominate that. */
const loaded = new Map<string, { signature: string; company: CompanyDefinition }>();

async function loadCompanyCached(sopsDir: string, rolesDir: string): Promise<CompanyDefinition> {
  const key = `${sopsDir}\0${rolesDir}`;
  const signature = await companySignature(sopsDir, rolesDir);
  const cached = loaded.get(key);
  if (cached?.signature === signature) return cached.company;
  const company = await loadCompany(sopsDir, rolesDir);
  loaded.set(key, { signature, company });
  return company;
}

export async function roleViewsOf(
  info: RunInfo | null,
  roleStates: readonly RoleState[],
  warnings: string[],
  calledActions: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<RoleView[]> {
  const stateOf = new Map(roleStates.map((s) => [s.role, s]));
  const recorded = (id: string) => {
    const s = stateOf.get(id);
    return { state: s?.state ?? null, status: s?.status ?? null, updatedAt: s?.updatedAt ?? null };
  };
  if (info) {
    try {
      const company = await loadCompanyCached(info.sops, info.roles);
      return company.roles.map((role) => {
        const state = recorded(role.id);
        const marked = state.state && sopHasState(role.sop, state.state) ? state.state : null;
        if (state.state && !marked)
          warnings.push(`${role.id} is recorded in state "${state.state}", which its SOP (${role.sopFile}) does not have; nothing is marked.`);
        const called = calledActions.get(role.id) ?? new Set<string>();
        const visited = visitedStates(role.sop, called);
        const fileSops = Object.entries(role.subSops).map(([name, sop]) => {
          const path = visitedStates(sop, called);
          return { name, diagram: sopStateDiagram(sop, { visited: path }), visited: path };
        });
        return {
          id: role.id,
          title: role.profile.title,
          watches: role.watches,
          ...state,
          step: marked ? describeStep(role.sop, marked) : null,
          diagram: sopStateDiagram(role.sop, { highlight: marked, visited }),
          marked,
          visited,
          fileSops,
        };
      });
    } catch (error) {
      warnings.push(`The SOPs this run used (${info.sops}, ${info.roles}) could not be loaded, so no state diagrams are drawn: ${describeError(error)}`);
    }
  }
  return roleStates.map((s) => ({
    id: s.role,
    title: null,
    watches: [],
    ...recorded(s.role),
    step: null,
    diagram: null,
    marked: null,
    visited: [],
    fileSops: [],
  }));
}
