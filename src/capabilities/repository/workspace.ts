/**
 * The generated repository. Every write goes through a checked path; every artifact lands as one
 * commit authored by the role that wrote it, with a trailer naming the board message.
 *
 * Commits are queued and made in the order asked, in batches: whatever is queued while a batch is
 * being made goes into the next one, and every batch goes to the one `git fast-import` process of the
 * run (git-importer.ts). Callers do not wait for a commit to go on with their work — the board is the
 * source of truth — only what needs the files on disk (running the tests, the end of a run) waits for
 * `settled()`. The index is brought up to date with the branch by `finish()` at the end of a run (and on
 * resume, after a crash).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ProjectFile } from '../../engine/board/index.ts';
import { STATE_DIR } from '../../engine/run/index.ts';
import { crashPoint } from '../../ground/crash-point.ts';
import { SopworksError } from '../../ground/errors.ts';
import { assertMayWrite, isExecutableFile, noFollowRefusal, readTextIfExists, resolveInside, writeNoFollow } from '../../ground/files/index.ts';
import { cleanLine } from '../../ground/terminal-text.ts';
import { findOnPath, GitImporter, git, type Identity } from '../../host/git/index.ts';
import { COMMITTER, exists, gitDirOf, startRepository } from './repository-folder.ts';

export { STATE_DIR };

// What installs and builds leave in a new project: Node's and Python's packages and caches, cargo's build (`/target/`).
const GITIGNORE = `${STATE_DIR}/\nnode_modules/\n__pycache__/\n*.pyc\n.venv/\n/target/\n`;

export type Author = Identity;

export interface CommitRequest {
  files: ProjectFile[];
  /** Paths the commit removes (a change run's deleted or renamed files); checked like the files. */
  removed?: string[];
  author: Author;
  subject: string;
  /** Trailer lines `Key: value`, e.g. the board message id. */
  trailers: Record<string, string>;
  /** The role whose artifact this is, checked against the write guard; absent for sopworks' own commits. */
  role?: string;
}

/** Why `role` may not write these paths, one reason each (empty when it may write them all). */
export type WriteGuard = (role: string, paths: readonly string[]) => string[];

interface QueuedCommit {
  /** Made when the commit's turn comes (rendering an artifact's files is work the poster need not wait for). */
  request: () => CommitRequest;
  resolve: (hash: string) => void;
  reject: (error: unknown) => void;
}

export class Workspace {
  private queued: QueuedCommit[] = [];
  private draining: Promise<void> | null = null;
  private writeGuard: WriteGuard | null = null;
  /** Set while a sandboxed run is checked against the repository: commits wait for it. */
  private held: Promise<void> | null = null;
  /** How many `withCommitsHeld` calls are running, and how to let the commits go when none is. */
  private holders = 0;
  private releaseHeld: (() => void) | null = null;
  /** The branch's last commit: undefined until read from the repository, null while it has none. */
  private tip: string | null | undefined;
  private ref: string | undefined;
  private importer: GitImporter | null = null;
  /**
   * Whether the repository's first commit is still to be queued: it is made with the first artifact's,
   * so starting a run costs no git process — they start once the first model calls are under way.
   */
  private firstCommitDue = false;
  /** Whether commits were made since the index last followed the branch. */
  private indexBehind = false;

  private constructor(
    readonly root: string,
    /** What must be done before the first commit (making the repository), started by the first commit. */
    private prepare: (() => Promise<void>) | null,
  ) {}

  get stateDir(): string {
    return path.join(this.root, STATE_DIR);
  }

  /**
   * Makes `root` (and its state folder) for a new repository. Refuses nothing and deletes nothing: the
   * caller has checked the folder (prepare-project.ts). The repository itself — `git init`, its own
   * committer identity, its first commit — is made with the first artifact's commit (or by `finish()`),
   * so a run's start costs no git process; a git missing from the PATH is refused here, before any model
   * is paid.
   */
  static async create(root: string): Promise<Workspace> {
    if (!findOnPath('git')) {
      throw new SopworksError('GIT_FAILED', 'git is not on the PATH: sopworks commits every artifact into a git repository.', {
        hint: 'Install git (e.g. apt-get install -y git) and run again.',
      });
    }
    await fs.mkdir(path.join(root, STATE_DIR), { recursive: true });
    const workspace = new Workspace(root, () => startRepository(root));
    workspace.tip = null;
    workspace.firstCommitDue = true;
    return workspace;
  }

  static async open(root: string): Promise<Workspace> {
    return new Workspace(root, null);
  }

  /**
   * Clears what a killed git leaves behind — `index.lock` stops every later commit, a branch's
   * `.lock` every later ref update — and brings the index back to the last commit. Only call this while
   * holding the run lock: then no other process can be using this repository.
   */
  async recoverFromCrash(): Promise<boolean> {
    const gitDir = await gitDirOf(this.root);
    if (!(await exists(path.join(gitDir, 'HEAD')))) {
      // Killed before the repository was made (it is made with the first commit): make it now.
      this.prepare = () => startRepository(this.root);
      this.tip = null;
      this.firstCommitDue = true;
      return false;
    }
    const locks = [path.join(gitDir, 'index.lock')];
    const ref = await this.branchRef();
    // In a change run's work tree the branches live in the repository's common git folder.
    const commonDir = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').then(
      (p) => path.resolve(gitDir, p.trim()),
      () => gitDir,
    );
    locks.push(path.join(commonDir, `${ref}.lock`));
    let removed = false;
    for (const lock of locks) {
      const existed = await exists(lock);
      if (existed) await fs.rm(lock, { force: true });
      removed ||= existed;
    }
    if ((await this.headCommit()) !== null) {
      await this.indexFollowsBranch();
    } else {
      // Killed before its first commit was made: start the repository as `create` would have.
      this.prepare = () => startRepository(this.root);
      this.tip = null;
      this.firstCommitDue = true;
    }
    return removed;
  }

  /** Values of a commit trailer across the history, e.g. every board message that has its commit. */
  async trailerValues(key: string): Promise<Set<string>> {
    if ((await this.headCommit()) === null) return new Set();
    const { stdout } = await git(this.root, ['log', `--format=%(trailers:key=${key},valueonly,separator=%x00)`]);
    return new Set(
      stdout
        .split(/[\0\n]/)
        .map((v) => v.trim())
        .filter(Boolean),
    );
  }

  async readFile(relative: string): Promise<string | null> {
    return readTextIfExists(await resolveInside(this.root, relative));
  }

  /**
   * Queues the files as one commit (an empty commit if nothing changed), after every commit asked
   * before it. Resolves with the commit's hash once it is made.
   */
  commit(request: CommitRequest | (() => CommitRequest)): Promise<string> {
    // The repository's own first commit goes first; if it fails, so does this one, in the same batch.
    if (this.firstCommitDue) this.commitFirst();
    return new Promise<string>((resolve, reject) => {
      this.queued.push({ request: typeof request === 'function' ? request : () => request, resolve, reject });
      // Started on the next turn of the event loop: the step that posted the artifact, and whoever it
      // wakes, get on with their work (the next model call goes out) before git costs the process time.
      this.draining ??= new Promise<void>((next) => setImmediate(next)).then(() => this.drain());
    });
  }

  private commitFirst(): void {
    this.firstCommitDue = false;
    this.commit({ files: [{ path: '.gitignore', content: GITIGNORE }], author: COMMITTER, subject: 'chore: start the repository', trailers: {} }).catch(
      () => undefined,
    );
  }

  /**
   * Runs `fn` with no commit made meanwhile (commits asked meanwhile wait their turn): a sandboxed run
   * is checked against the repository's refs and index as they were before it (sandbox/integrity.ts).
   */
  async withCommitsHeld<T>(fn: () => Promise<T>): Promise<T> {
    // Several may overlap (or nest): the commits wait until the last has ended. Only the first waits
    // for the commits asked before it; a later one would wait for commits that its elder holds.
    if (this.holders === 0) await this.settled();
    if (this.holders++ === 0) this.held = new Promise<void>((resolve) => (this.releaseHeld = resolve));
    try {
      return await fn();
    } finally {
      if (--this.holders === 0) {
        const release = this.releaseHeld;
        this.held = null;
        this.releaseHeld = null;
        release?.();
      }
    }
  }

  /** Resolves once every commit asked so far is made (or has failed: its own promise says so). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /**
   * The end of a run: waits for the commits asked so far, lets git go, and brings the index up to date
   * with the branch, so `git status` in the repository is clean. Commits asked later start git again.
   */
  async finish(): Promise<void> {
    // A run that stops before its first artifact (held back for approval, say) still leaves a repository.
    if (this.firstCommitDue) this.commitFirst();
    await this.settled();
    const importer = this.importer;
    this.importer = null;
    const indexBehind = this.indexBehind;
    this.indexBehind = false;
    // Closing git's stream brings the index along (git-importer.ts); without a git running, read the tree here.
    const indexFollows = importer ? await importer.close() : false;
    if (indexBehind && !indexFollows) await this.indexFollowsBranch();
  }

  /**
   * The index takes the last commit's tree. Not `git reset`, which would also move HEAD (to where it
   * is) and leave a "reset: moving to HEAD" in the reflog of a repository that is the user's to keep;
   * git refreshes the index's file times itself the first time it compares the files.
   */
  private async indexFollowsBranch(): Promise<void> {
    assertMayWrite(this.root);
    await git(this.root, ['read-tree', 'HEAD']);
  }

  /** From now on, a commit of a path its role may not write is refused (the authorization policy). */
  guardWrites(guard: WriteGuard): void {
    this.writeGuard = guard;
  }

  private async drain(): Promise<void> {
    while (this.held) await this.held;
    try {
      if (this.prepare) {
        const prepare = this.prepare;
        this.prepare = null;
        await prepare();
      }
    } catch (error) {
      for (const item of this.queued.splice(0)) item.reject(this.gitError('configure the repository', error));
      this.draining = null;
      return;
    }
    while (this.queued.length > 0) {
      while (this.held) await this.held;
      const batch = this.queued.splice(0);
      await this.commitBatch(batch).catch((error: unknown) => {
        for (const item of batch) item.reject(error);
      });
    }
    this.draining = null;
  }

  private async commitBatch(batch: QueuedCommit[]): Promise<void> {
    // A run whose lease was lost writes nothing more (write-fence.ts): the batch fails before a file is touched.
    assertMayWrite(this.root);
    const accepted: { request: CommitRequest; resolve: (hash: string) => void; reject: (error: unknown) => void }[] = [];
    for (const item of batch) {
      let request: CommitRequest;
      try {
        request = item.request();
      } catch (error) {
        item.reject(error);
        continue;
      }
      const refusal = this.refusal(request);
      if (refusal) item.reject(refusal);
      else accepted.push({ request, resolve: item.resolve, reject: item.reject });
    }
    // The files go on disk first (later commits of the batch overwrite earlier ones' files, as they would
    // one commit at a time); the commits themselves carry their own content. A path through a symbolic
    // link (left by generated code) is refused like a policy refusal: that commit fails, nothing is written.
    for (const item of [...accepted]) {
      const touched = [...item.request.files.map((file) => file.path), ...(item.request.removed ?? [])];
      const refusals = (await Promise.all(touched.map(async (file) => [file, await noFollowRefusal(this.root, file)] as const))).filter(
        ([, reason]) => reason !== null,
      );
      let refusal = refusals.length > 0 ? refusals.map(([file, reason]) => `${file}: ${reason}`).join('; ') : null;
      for (const gone of refusal ? [] : (item.request.removed ?? [])) await fs.rm(await resolveInside(this.root, gone), { force: true });
      for (const file of refusal ? [] : item.request.files) {
        // A file its design does not declare keeps the mode it has: a change's edit of a bin script leaves it executable.
        file.executable ??= await isExecutableFile(this.root, file.path);
        const refused = await writeNoFollow(this.root, file.path, file.content, file.executable ? 0o755 : 0o644);
        if (refused) refusal ??= `${file.path}: ${refused}`;
      }
      if (refusal) {
        accepted.splice(accepted.indexOf(item), 1);
        item.reject(
          new SopworksError('PATH_UNSAFE', `Refused to write "${item.request.subject}": ${refusal}.`, {
            hint: 'Generated code left a symbolic link in the project; remove it, then `sopworks resume`.',
          }),
        );
      }
    }
    if (accepted.length === 0) return;
    const parent = this.tip === undefined ? await this.headCommit() : this.tip;
    this.importer ??= new GitImporter(this.root, await this.branchRef());
    const commits = accepted.map(({ request }) => {
      const trailers = Object.entries(request.trailers).map(([key, value]) => `${key}: ${value}`);
      // A subject is one line, whatever a model put in a title: no forged paragraph, trailer or escape in git's log.
      const subject = cleanLine(request.subject);
      return {
        files: request.files,
        removed: request.removed,
        author: request.author,
        committer: COMMITTER,
        message: trailers.length > 0 ? `${subject}\n\n${trailers.join('\n')}` : subject,
      };
    });
    // Killed while sending a batch, git gets a stream without its checkpoint: none of the batch is made.
    assertMayWrite(this.root);
    const hashes = await this.importer
      .commit(commits, parent, () => crashPoint('git.commit'))
      .catch((error: unknown) => {
        throw this.gitError(`commit ${describeBatch(accepted)}`, error);
      });
    if (hashes.length !== accepted.length) {
      throw new SopworksError('GIT_FAILED', `git fast-import made ${hashes.length} commit(s) for ${accepted.length} in ${this.root}.`);
    }
    this.tip = hashes.at(-1)!;
    this.indexBehind = true;
    accepted.forEach((item, index) => item.resolve(hashes[index]!));
  }

  private refusal(request: CommitRequest): SopworksError | null {
    const paths = [...request.files.map((f) => f.path), ...(request.removed ?? [])];
    const refusals = request.role !== undefined && this.writeGuard ? this.writeGuard(request.role, paths) : [];
    if (refusals.length === 0) return null;
    return new SopworksError('PATH_UNSAFE', `Refused to commit "${request.subject}": ${refusals.join('; ')}.`, {
      hint: 'Nothing was written. Edit the authorization policy (sops/policy.yaml) if the role should write there.',
    });
  }

  private gitError(what: string, error: unknown): SopworksError {
    // git's own failures already say where; others get the folder.
    const where = SopworksError.isInstance(error) && error.code === 'GIT_FAILED' && error.message.includes(this.root) ? '' : ` in ${this.root}`;
    return new SopworksError('GIT_FAILED', `Could not ${what}${where}: ${(error as Error).message}`, {
      hint: SopworksError.isInstance(error) ? error.hint : undefined,
      cause: error,
    });
  }

  /** The ref HEAD points at, e.g. refs/heads/main (whatever `git init` chose here). */
  private async branchRef(): Promise<string> {
    this.ref ??= await this.readBranchRef();
    return this.ref;
  }

  private async readBranchRef(): Promise<string> {
    const head = await fs.readFile(path.join(await gitDirOf(this.root), 'HEAD'), 'utf8').catch(() => '');
    const match = /^ref: (refs\/heads\/\S+)\s*$/.exec(head);
    if (match) return match[1]!;
    const { stdout } = await git(this.root, ['symbolic-ref', 'HEAD']);
    return stdout.trim();
  }

  /** The hash of HEAD, or null in a repository without commits (or none at all yet). */
  private async headCommit(): Promise<string | null> {
    if (!(await exists(path.join(await gitDirOf(this.root), 'HEAD')))) return null;
    const { stdout, code } = await git(this.root, ['rev-parse', '--verify', '--quiet', 'HEAD'], { okCodes: [1] });
    return code === 0 ? stdout.trim() : null;
  }

  /** Commits in order, oldest first: subject, author and trailers. */
  async history(): Promise<{ hash: string; subject: string; author: string; body: string }[]> {
    if ((await this.headCommit()) === null) return [];
    const { stdout } = await git(this.root, ['log', '--reverse', '--format=%H%x1f%s%x1f%an <%ae>%x1f%b%x1e']);
    return stdout
      .split('\x1e')
      .map((record) => record.replace(/^\n/, ''))
      .filter(Boolean)
      .map((record) => {
        const [hash, subject, author, body] = record.split('\x1f') as [string, string, string, string];
        return { hash, subject, author, body: body.trim() };
      });
  }

  /** The files of the last commit. */
  async trackedFiles(): Promise<string[]> {
    if ((await this.headCommit()) === null) return [];
    const { stdout } = await git(this.root, ['ls-tree', '-r', '-z', '--name-only', 'HEAD']);
    return stdout.split('\0').filter(Boolean);
  }
}

const describeBatch = (batch: { request: CommitRequest }[]): string =>
  batch.length === 1 ? `"${batch[0]!.request.subject}"` : `${batch.length} artifacts ("${batch[0]!.request.subject}" … "${batch.at(-1)!.request.subject}")`;
