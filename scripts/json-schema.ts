/**
 * Writes docs/json-lines.schema.json: the JSON Schema of every line `--json` prints, made from the zod
 * schema the CLI's output is held to (src/apps/console/json-lines-schema.ts). `npm run docs:json-schema`;
 * a test fails when the file and the schema differ.
 */
import fs from 'node:fs';
import { jsonLinesSchemaText } from '../src/apps/console/index.ts';

fs.writeFileSync(new URL('../docs/json-lines.schema.json', import.meta.url), jsonLinesSchemaText());
process.stdout.write('wrote docs/json-lines.schema.json\n');
