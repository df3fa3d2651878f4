/** ground/files: its public face — what other folders may use of it. */
export { AppendLog, type Flush, type RecordLog, readAppendLog, repairAppendLog } from './append-log.ts';
export { cacheFolder, expandHome } from './cache-folder.ts';
export { escapeRegExp } from './escape-reg-exp.ts';
export { type JsonLines, parseJsonLines } from './json-lines.ts';
export { isExecutableFile, noFollowRefusal, writeNewFile, writeNoFollow } from './no-follow-write.ts';
export { checkProjectName, PROJECT_NAME, projectNameFromSpec, slugOf } from './project-name.ts';
export { readTextIfExists } from './read-text-if-exists.ts';
export { checkRelativePath, RelativePath, resolveInside } from './safe-path.ts';
export { assertMayWrite, type FenceCheck, fenceLost, fenceReason, fenceWrites, withFencedWrites } from './write-fence.ts';
export { loadYamlFile, locate, readYaml, validateYaml, type YamlSource } from './yaml-file.ts';
