/** The folder sopworks is installed in (or cloned to): its package.json, and the default SOPs and roles. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const DEFAULT_SOPS = path.join(PACKAGE_ROOT, 'sops');
export const DEFAULT_ROLES = path.join(PACKAGE_ROOT, 'roles');
