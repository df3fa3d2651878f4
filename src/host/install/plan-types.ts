/** What an install plan is, shared by the plans of each ecosystem (node-plan.ts, python-plan.ts). */
import { createHash } from 'node:crypto';
import type { ConfigSetting } from './npmrc-settings.ts';
import type { Workspace } from './workspaces.ts';

export const NPM_LOCKFILE = 'package-lock.json';
export const PYTHON_LOCKFILE = 'requirements.lock';
export interface InstallPlan {
  ecosystem: 'npm' | 'python';
  /** The manifest it installs from: package.json, requirements.txt or pyproject.toml. */
  manifest: string;
  /** pyproject.toml's dependencies, passed to pip one by one (checked before: python-sources.ts). */
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

/** A manifest sopworks cannot read: the install fails with this, and the Engineer gets it as a bug. */
export class ManifestProblem extends Error {}

export const fingerprint = (parts: (string | null)[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');
