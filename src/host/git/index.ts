/** host/git: its public face — what other folders may use of it. */
export { commitCommand, type Identity, quotePath } from './fast-import-stream.ts';
export { NO_DIFF_PROGRAMS } from './git-hardening.ts';
export { GitImporter } from './git-importer.ts';
export { findOnPath, git } from './git-process.ts';
export { isOldGit, parseGitVersion } from './git-version.ts';
export { looseEntries, removeNewEntries } from './loose-entries.ts';
export { readBlobBytes, readBlobs } from './read-blobs.ts';
export { attributeDrivers, describeFindings, inspectProject } from './tamper-check.ts';
