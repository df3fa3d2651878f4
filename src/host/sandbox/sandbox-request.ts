/** What a sandboxed run is asked for, what it returns, and what the runner prepared between the two. */
import type { ModeSetting } from './choose-mode.ts';
import type { FoundCommand } from './find-command.ts';
import type { GitDirSnapshot } from './git-dir-guard.ts';
import type { AcceptLine, ProtectedSnapshot } from './integrity.ts';
import type { SandboxLimits } from './limits.ts';
import type { OwnNetwork } from './own-network.ts';
import type { PidsCgroup } from './pids-cgroup.ts';
import type { SandboxMode, SandboxReport } from './sandbox-report.ts';
import type { Scratch, TreeSize } from './scratch-copy.ts';

export interface SandboxRequest {
  argv: readonly string[];
  projectDir: string;
  limits: SandboxLimits;
  setting: ModeSetting;
  allowUnsandboxed: boolean;
  /**
   * A network namespace of the command's own in every mode (refused where none can be made), its only
   * way out the egress proxy when one is given: a dependency install. Absent: no network under
   * bubblewrap; the weaker modes cannot block it and say so.
   */
  ownNetwork?: OwnNetwork;
  /**
   * The command is the host's installer (host/install/): its program an absolute path outside the
   * project, and nothing of the project on its PATH — no `.venv/bin`, no folder of the project that
   * is on sopworks' own PATH. Absent: a command of the project, which finds the project's venv first.
   */
  installer?: boolean;
  /**
   * Folders of this machine the installer's program lives in beyond the system's (a package manager
   * sopworks keeps in its cache): shown read-only under bubblewrap. Each must lie outside the project.
   */
  programRoots?: readonly string[];
  /**
   * Whether a line appended to the run's board or exchange log while the command ran is sopworks' own
   * (a run goes on posting meanwhile); absent: none may be appended (integrity.ts).
   */
  acceptRecordLine?: AcceptLine;
  /** Told why the run is not under bubblewrap, before it starts (print it loudly). */
  onNotice?: (notice: string) => void;
}

export interface SandboxOutcome extends SandboxReport {
  exitCode: number | null;
  /** The signal that ended the command (under bubblewrap, read from its 128+N exit code). */
  signal: string | null;
  timedOut: boolean;
  /** The tail of stdout and stderr, secrets redacted, paths as bubblewrap shows them in every mode (machine-paths.ts). */
  output: string;
  truncated: boolean;
  /** Why the run was not under bubblewrap; null when it was. */
  notice: string | null;
}

/** One run's places, bounds and snapshots, made before the command runs and read after it ended. */
export interface SandboxSetup {
  request: SandboxRequest;
  mode: SandboxMode;
  /** Why the run is not under bubblewrap; null when it is. */
  notice: string | null;
  found: FoundCommand;
  /** The project folder, resolved (no link in its path). */
  projectDir: string;
  /** Where the command runs: the project under bubblewrap, a scratch copy of its work tree otherwise. */
  workDir: string;
  scratch: Scratch | null;
  /** The command's private temp folder (its HOME and TMPDIR) outside bubblewrap; null under it (a tmpfs). */
  hostTmp: string | null;
  /** Marks every process of this run (outlived.ts). */
  runId: string;
  cgroup: PidsCgroup | null;
  /** The RLIMIT_NPROC bound, where one applies (not to root). */
  nproc: number | null;
  /** Git dirs the work tree's `.git` file points into (git-dir-guard.ts). */
  gitDirs: string[];
  /** The repository's metadata and the run's record, and the guarded git dirs, as they were before. */
  snapshot: ProtectedSnapshot;
  guarded: GitDirSnapshot[];
  sizeBefore: TreeSize;
}
