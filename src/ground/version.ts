/** This sopworks' version, from its package.json: recorded with results and jobs, checked by workers. */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-root.ts';

export const SOPWORKS_VERSION: string = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
