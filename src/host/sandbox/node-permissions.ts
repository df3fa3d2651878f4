/**
 * The fallback for Node projects where bubblewrap is missing: Node's permission model, passed in
 * NODE_OPTIONS so that every Node process of the run inherits it (the test runner's per-file
 * children, and `node` started by the tests). Writes are limited to the project and a private temp
 * folder; workers, native add-ons and WASI are refused. Reads stay open: the model cannot refuse
 * a read without also changing what a test of a missing file sees (ERR_ACCESS_DENIED for ENOENT),
 * so generated tests would fail here and pass under bubblewrap. Child processes must stay allowed —
 * `node --test` runs each test file in one — and a child that is not Node, or a Node started without
 * these options, runs unrestricted. Nor does the model touch the network. docs/sandbox.md lists these gaps.
 */
export interface NodeGrants {
  projectDir: string;
  tmpDir: string;
}

/** The NODE_OPTIONS value that turns the permission model on with these grants; pure. */
export function nodePermissionOptions(grants: NodeGrants): string {
  const options = [
    '--experimental-permission',
    '--allow-fs-read=*',
    `--allow-fs-write=${grants.projectDir}`,
    `--allow-fs-write=${grants.tmpDir}`,
    '--allow-child-process',
    // Both warnings go to every Node process's stderr, which a project's tests read: a CLI test that
    // expects nothing on stderr would fail here and pass under bubblewrap.
    '--disable-warning=ExperimentalWarning',
    '--disable-warning=SecurityWarning',
  ];
  return options.map(quoteOption).join(' ');
}

/** NODE_OPTIONS splits on spaces and honours double quotes with backslash escapes. */
function quoteOption(option: string): string {
  return /[\s"\\]/.test(option) ? `"${option.replace(/(["\\])/g, '\\$1')}"` : option;
}
