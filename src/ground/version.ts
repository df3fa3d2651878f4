/** This sopworks' version, from its package.json: recorded with results and jobs, checked by workers. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');

export const SOPWORKS_VERSION: string = (JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
