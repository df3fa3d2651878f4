/** host/git: its public face — what other folders may use of it. */
export type { Identity } from './fast-import-stream.ts';
export { NO_DIFF_PROGRAMS } from './git-hardening.ts';
export { GitImporter } from './git-importer.ts';
export { findOnPath, git } from './git-process.ts';
export { looseEntries, removeNewEntries } from './loose-entries.ts';
export { readBlobs } from './read-blobs.ts';
export { attributeDrivers, describeFindings, inspectProject } from './tamper-check.ts';
