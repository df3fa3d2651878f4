/**
 * Loads the org chart (sops/company.yaml), each hired role's SOP (sops/<role>.yaml) and profile
 * (roles/<role>/role.yaml), and checks what a run would trip on before anyone is hired.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SopworksError } from '../errors.ts';
import { knownMessageTypes } from '../artifacts/registry.ts';
import { loadRoleProfile, type RoleProfile } from '../roles/role-profile.ts';
import { resolveSop } from '../sop/build-machine.ts';
import { CompanyFile, SopFile, type StateNodeConfig } from '../sop/sop-file.ts';
import { locate, readYaml, validateYaml } from '../sop/yaml-file.ts';

export interface HiredRole {
  id: string;
  watches: string[];
  sop: SopFile;
  sopFile: string;
  profile: RoleProfile;
}

export interface CompanyDefinition {
  name: string;
  sopsDir: string;
  rolesDir: string;
  roles: HiredRole[];
}

export async function loadCompany(sopsDir: string, rolesDir: string): Promise<CompanyDefinition> {
  const companyPath = path.join(sopsDir, 'company.yaml');
  if (!fs.existsSync(companyPath)) {
    throw new SopworksError('SOP_INVALID', `${companyPath}: missing.`, { hint: 'Point --sops at a folder holding company.yaml (the defaults are in sops/).' });
  }
  const source = await readYaml(companyPath);
  const company = validateYaml(source, CompanyFile);
  const problems: string[] = [];
  const known = new Set(knownMessageTypes());
  const seen = new Set<string>();
  company.roles.forEach((role, index) => {
    if (seen.has(role.id)) problems.push(`${locate(source, ['roles', index, 'id'])}: role "${role.id}" is hired twice`);
    seen.add(role.id);
    role.watches.forEach((type, i) => {
      if (!known.has(type)) problems.push(`${locate(source, ['roles', index, 'watches', i])}: unknown message type "${type}"; known: ${[...known].join(', ')}`);
    });
  });
  if (problems.length > 0) throw new SopworksError('SOP_INVALID', problems.join('\n'));

  const roles: HiredRole[] = [];
  for (const [index, role] of company.roles.entries()) {
    const sopFile = path.join(sopsDir, role.sop ?? `${role.id}.yaml`);
    if (!fs.existsSync(sopFile)) {
      throw new SopworksError('SOP_INVALID', `${locate(source, ['roles', index, 'id'])}: role "${role.id}" has no SOP file ${sopFile}.`, {
        hint: `Write ${sopFile}, or name another file with "sop:".`,
      });
    }
    const sopSource = await readYaml(sopFile);
    const sop = resolveSop(validateYaml(sopSource, SopFile), sopSource);
    const profile = await loadRoleProfile(rolesDir, role.id);
    for (const step of askSteps(sop.states, ['states'])) {
      const template = path.join(rolesDir, role.id, `${step.action}.hbs`);
      if (!fs.existsSync(template)) {
        throw new SopworksError('TEMPLATE_INVALID', `${locate(sopSource, step.at)}: step "${step.action}" of ${role.id} has no template ${template}.`, {
          hint: `Write ${template}, or change the step's action.`,
        });
      }
    }
    roles.push({ id: role.id, watches: role.watches, sop, sopFile, profile });
  }
  return { name: company.name ?? 'sopworks', sopsDir, rolesDir, roles };
}

/** The `action` of every `ask` step in a SOP, with where it is written. */
function askSteps(states: Record<string, StateNodeConfig>, at: (string | number)[]): { action: string; at: (string | number)[] }[] {
  const found: { action: string; at: (string | number)[] }[] = [];
  for (const [id, state] of Object.entries(states)) {
    const here = [...at, id];
    const invokes = state.invoke ? (Array.isArray(state.invoke) ? state.invoke.map((inv, i) => [inv, [...here, 'invoke', i]] as const) : [[state.invoke, [...here, 'invoke']] as const]) : [];
    for (const [inv, where] of invokes) {
      if (inv.src === 'ask' && typeof inv.input?.action === 'string') found.push({ action: inv.input.action, at: [...where, 'input', 'action'] });
    }
    if (state.states) found.push(...askSteps(state.states, [...here, 'states']));
  }
  return found;
}
