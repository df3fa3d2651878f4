/**
 * Validates a company's folders — sops/ (company.yaml and a SOP per role) and roles/ (a profile and
 * the prompt templates per role) — collecting every problem a run would trip on, each at
 * file:line:column. `sopworks sop validate` prints them; `sopworks run` refuses to start on an error.
 */
import fs from 'node:fs';
import { policyProblems } from '../../capabilities/policy/load-policy.ts';
import path from 'node:path';
import { messageTypes } from '../../company/message-types.ts';
import { RoleProfile } from '../roles/role-profile.ts';
import type { RoleProfile as Profile } from '../roles/role-profile.ts';
import { resolveSopReferences } from './build-machine.ts';
import { checkMachine } from './check-machine.ts';
import { checkMessageFlow, type CheckedRole } from './check-message-flow.ts';
import { CLIENT } from './message-flow.ts';
import { checkNames } from './check-names.ts';
import { checkTemplates, type TemplateRole } from './check-templates.ts';
import { errorsIn, sopError, sopWarning, uniqueDiagnostics, type Diagnostic } from './diagnostic.ts';
import { CompanyFile, SopFile } from './sop-file.ts';
import type { RoleModel } from '../../capabilities/model/role-model.ts';
import { loadYamlChecked, locatorOf } from './yaml-diagnostics.ts';
import { loadSubSops, type LoadedSubSop } from './load-sub-sops.ts';
import type { YamlSource } from '../../ground/files/yaml-file.ts';

export interface ValidatedRole {
  id: string;
  watches: string[];
  /** The role's own model and fallbacks from company.yaml, when it names them. */
  model?: RoleModel;
  /** The SOP with every parameter parsed (defaults filled in). */
  sop: SopFile;
  sopFile: string;
  profile: Profile;
  /** The per-file SOPs its `eachFile` steps run, by the name the step gives (checked, parameters parsed). */
  subSops: Record<string, SopFile>;
}

export interface ValidatedCompany {
  name: string;
  sopsDir: string;
  rolesDir: string;
  roles: ValidatedRole[];
}

export interface Validation {
  /** The company, when there is no error. */
  company: ValidatedCompany | null;
  diagnostics: Diagnostic[];
  /** The files read, for the summary of `sop validate`. */
  files: number;
}

interface RoleState {
  id: string;
  watches: string[];
  model?: RoleModel;
  sopFile: string;
  sop: SopFile | null;
  source: YamlSource | null;
  profile: Profile | null;
  subSops: LoadedSubSop[];
}

const subSopsByName = (parts: readonly LoadedSubSop[]): Record<string, SopFile> => Object.fromEntries(parts.map((p) => [p.name, p.sop]));

export async function validateCompany(sopsDir: string, rolesDir: string): Promise<Validation> {
  const diagnostics: Diagnostic[] = [];
  let files = 0;
  const companyPath = path.join(sopsDir, 'company.yaml');
  if (!fs.existsSync(companyPath)) {
    diagnostics.push(
      sopError(
        `${companyPath}:1:1`,
        `missing: --sops must name a folder holding company.yaml; \`sopworks sop init DIR\` writes a copy of the defaults to start from`,
      ),
    );
    return { company: null, diagnostics, files };
  }
  const companyYaml = await loadYamlChecked(companyPath, CompanyFile);
  files++;
  diagnostics.push(...companyYaml.diagnostics);
  if (!companyYaml.value || !companyYaml.source) return { company: null, diagnostics, files };
  const company = companyYaml.value;
  const companySource = companyYaml.source;
  const companyWhere = locatorOf(companySource);

  const seen = new Set<string>();
  company.roles.forEach((role, index) => {
    if (role.id === CLIENT)
      diagnostics.push(
        sopError(companyWhere(['roles', index, 'id']), `the role id "${CLIENT}" is reserved: the client is who posts the Requirement; choose another id`),
      );
    if (seen.has(role.id))
      diagnostics.push(
        sopError(companyWhere(['roles', index, 'id']), `role "${role.id}" is hired twice; give each role one entry (its watches can list several types)`),
      );
    seen.add(role.id);
    role.watches.forEach((type, i) => {
      if (!(type in messageTypes)) {
        diagnostics.push(
          sopError(companyWhere(['roles', index, 'watches', i]), `unknown message type "${type}"; known: ${Object.keys(messageTypes).join(', ')}`),
        );
      }
    });
  });

  // The authorization policy lives beside company.yaml; a run would refuse a broken one too.
  if (fs.existsSync(path.join(sopsDir, 'policy.yaml'))) files++;
  for (const problem of await policyProblems(sopsDir)) {
    const located = /^(.+?:\d+:\d+): ([\s\S]*)$/.exec(problem);
    diagnostics.push(sopError(located ? located[1]! : `${path.join(sopsDir, 'policy.yaml')}:1:1`, located ? located[2]! : problem));
  }

  const roles: RoleState[] = [];
  for (const [index, role] of company.roles.entries()) {
    const sopFile = path.join(sopsDir, role.sop ?? `${role.id}.yaml`);
    const state: RoleState = {
      id: role.id,
      watches: role.watches,
      ...(role.model !== undefined ? { model: role.model } : {}),
      sopFile,
      sop: null,
      source: null,
      profile: null,
      subSops: [],
    };
    diagnostics.push(...roleModelProblems(role.model, (at) => companyWhere(['roles', index, 'model', ...at])));
    roles.push(state);
    if (!fs.existsSync(sopFile)) {
      diagnostics.push(
        sopError(
          companyWhere(['roles', index, role.sop ? 'sop' : 'id']),
          `role "${role.id}" has no SOP file ${sopFile}; write it (\`sopworks sop init DIR\` gives examples), or name another file with sop:`,
        ),
      );
    } else {
      const loaded = await loadYamlChecked(sopFile, SopFile);
      files++;
      diagnostics.push(...loaded.diagnostics);
      if (loaded.value && loaded.source) {
        const source = loaded.source;
        const where = locatorOf(source);
        const resolved = resolveSopReferences(loaded.value, source);
        diagnostics.push(...resolved.problems.map((p) => sopError(p.where, p.message)));
        diagnostics.push(...checkMachine(resolved.sop, where), ...checkNames(resolved.sop, where));
        state.sop = resolved.sop;
        state.source = source;
        const parts = await loadSubSops(resolved.sop, sopFile, where);
        diagnostics.push(...parts.diagnostics);
        files += parts.files;
        state.subSops = parts.subSops;
      }
    }
    const profileFile = path.join(rolesDir, role.id, 'role.yaml');
    if (!fs.existsSync(profileFile)) {
      diagnostics.push(
        sopError(
          companyWhere(['roles', index, 'id']),
          `role "${role.id}" has no profile ${profileFile}; write it with name, title, goal and constraints (see roles/qa/role.yaml)`,
        ),
      );
    } else {
      const profile = await loadYamlChecked(profileFile, RoleProfile);
      files++;
      diagnostics.push(...profile.diagnostics);
      if (profile.value) state.profile = { ...profile.value, id: role.id, email: `${role.id}@sopworks.local` };
    }
  }

  const withSop = roles.filter((r): r is RoleState & { sop: SopFile; source: YamlSource } => r.sop !== null && r.source !== null);
  const flowRoles: CheckedRole[] = roles.map((r) => ({
    id: r.id,
    watches: r.watches,
    sop: r.sop,
    subSops: subSopsByName(r.subSops),
    sopWhere: r.source ? locatorOf(r.source) : null,
  }));
  diagnostics.push(...checkMessageFlow(flowRoles, companyWhere, withSop.length === roles.length));
  const templateRoles: TemplateRole[] = withSop.flatMap((r) => [
    { id: r.id, sop: r.sop, sopWhere: locatorOf(r.source) },
    ...r.subSops.map((part) => ({ id: r.id, sop: part.sop, sopWhere: locatorOf(part.source) })),
  ]);
  const templates = await checkTemplates(rolesDir, templateRoles);
  diagnostics.push(...templates.diagnostics);
  files += templates.checked;

  const unique = uniqueDiagnostics(diagnostics);
  const complete = errorsIn(unique).length === 0 && roles.every((r) => r.sop !== null && r.profile !== null);
  return {
    company: complete
      ? {
          name: company.name ?? 'sopworks',
          sopsDir,
          rolesDir,
          roles: roles.map((r) => ({
            id: r.id,
            watches: r.watches,
            ...(r.model !== undefined ? { model: r.model } : {}),
            sop: r.sop!,
            sopFile: r.sopFile,
            profile: r.profile!,
            subSops: subSopsByName(r.subSops),
          })),
        }
      : null,
    diagnostics: unique,
    files,
  };
}

/**
 * What a role's model settings would trip on at run time, beyond their shape: a key variable that is not
 * set here, the same model listed twice in one chain.
 */
function roleModelProblems(model: RoleModel | undefined, where: (at: (string | number)[]) => string): Diagnostic[] {
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
