// Given to a child as `--import` (NODE_OPTIONS): every module the process loads is written, one URL a line,
// to the file MODULE_LOG_FILE names (test/integration/cli-bin.test.ts: what a run loads).
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.MODULE_LOG_FILE } });
