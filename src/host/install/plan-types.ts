/** What an install plan is, shared by the plans of each ecosystem (node-plan.ts, python-plan.ts). */
import { createHash } from 'node:crypto';
import type { ConfigSetting } from './npmrc-settings.ts';
import type { ManagerChoice } from './package-manager.ts';
import type { Workspace } from './workspaces.ts';

export const NPM_LOCKFILE = 'package-lock.json';
export const PYTHON_LOCKFILE = 'requirements.lock';
export interface InstallPlan {
  ecosystem: 'npm' | 'python';
  /** The manifest it installs from: package.json, requirements.txt or pyproject.toml (a Python project's first source). */
  manifest: string;
  /** The requirements passed to pip one by one: pyproject.toml's, its test extras and groups… (checked before: python-sources.ts). */
  declared: string[];
  argv: string[];
  lockfile: string;
  /** The command as a person would read it (the Python install runs a short script around pip). */
  shown: string[];
  /** Fingerprint of the manifest and lockfile the install starts from. */
  fingerprint: string;
  /** The repository's own installer settings, read as data: honoured or overridden (npmrc-settings.ts). */
  settings: ConfigSetting[];
  /** The repository's workspaces, installed and linked with it (a change run); empty: one package. */
  workspaces: Workspace[];
  /** The Node package manager the repository installs with (package-manager.ts); null for Python. */
  manager: ManagerChoice | null;
  /**
   * For pnpm and Yarn: the environment their wrapper starts them with (manager-install.ts), on top of
   * the egress-controlled settings every install gets, and a Yarn configuration to read instead of the
   * repository's .yarnrc.yml (its honoured settings only); null for npm and Python.
   */
  wrapper: { env: Record<string, string>; yarnrc: Record<string, unknown> | null } | null;
  /** pnpm's catalogs (pnpm-workspace.yaml), which a `catalog:` dependency takes its range from. */
  catalogs: Record<string, Record<string, string>>;
  /** A Python project's sources of requirements (python-requirements.ts), each checked before the install; absent for Node. */
  python?: { files: string[]; named: NamedRequirement[]; selfNaming: string[]; notes: string[] };
}

/** A Python requirement passed to pip by name, and the file it was read from (a refusal names it). */
export interface NamedRequirement {
  requirement: string;
  from: string;
}

export interface PlanOptions {
  /** Let packages' install and build scripts run. */
  scripts: boolean;
  /** Exactly as the lockfile says (`npm ci`), for a repository's base. */
  frozen: boolean;
  /** Install a repository's workspaces (a change run); otherwise a manifest that declares them is refused. */
  workspaces: boolean;
}

/** Reads a file of the project for a plan: null when missing; a link out of it is a ManifestProblem. */
export type PlanReader = (file: string) => Promise<string | null>;

export { ManifestProblem } from './manifest-problem.ts';

export const fingerprint = (parts: (string | null)[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
