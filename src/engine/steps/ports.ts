/**
 * The ports: everything a step may use of the world outside its role's context — the only doors from a
 * SOP to the model, the repository, the sandbox, the policy and a person. The engine declares them; the
 * capabilities implement them and the composition root (src/company/) hands them to each role.
 */
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import type { ProjectRunners } from '../../host/runners/index.ts';
import type { SandboxSettings } from '../../host/sandbox/index.ts';
import type { BoardReader, Draft, Message, MessageTypes } from '../board/index.ts';
import type { RoleProfile } from '../roles/index.ts';
import type { RoleContext } from './role-context.ts';
import type { RoleSettings, SopFile } from './sop-file.ts';

/** Who acts: the role, the people holding it, and in a per-file machine the file's writer and reviewer. */
export interface RolePort {
  profile: RoleProfile;
  /** Who holds this role (`--engineers N` hires N; otherwise the role itself). */
  seats: readonly RoleProfile[];
  /** The role's settings in company.yaml, read by the `setting` guard (absent: none). */
  settings?: Readonly<RoleSettings>;
  /** In a per-file machine: who writes the file and who reviews it (an `ask` step's `by`). */
  fileSeats?: { writer: RoleProfile; reviewer: RoleProfile };
}

/** The board as a step sees it: what is on it, and what comes next. */
export interface BoardPort extends BoardReader {
  /** The message types the board accepts. */
  readonly types: MessageTypes;
  list(): readonly Message[];
  subscribe(subscriber: (message: Message) => void): () => void;
}

/**
 * Posts a message on the board, and queues the commit of the files it carries, authored by this role.
 * `nth` counts the role's messages: when the role's n-th message is already on the board (a step re-run
 * after a restore), that message is returned instead of posting it again. Resolves once the message is
 * on the board (`onPosted` is told just before); the commit is not waited for — see RepositoryPort.filesOnDisk.
 */
export type Publish = (draft: Draft, nth: number, onPosted?: (message: Message) => void) => Promise<Message>;

/** What a model is asked for: a structured artifact, one file, several files, or edits of one file. */
export type OutputSpec =
  | { kind: 'json'; name: string; schema: z.ZodType }
  | { kind: 'code'; path: string }
  | { kind: 'files' }
  /** Changes to an existing file (search/replace blocks, or a small file whole): src/documents/edits.ts. */
  | { kind: 'edits'; path: string };

/** Who asks, for which action, about which key (a file, or none). */
export interface CallMeta {
  role: string;
  action: string;
  /** Tells apart calls of one action, e.g. the file path of a per-file action. */
  key: string | null;
}

export interface AskRequest {
  call: CallMeta;
  profile: RoleProfile;
  variables: Record<string, unknown>;
  output: OutputSpec;
  /** The n-th call of this action for this key by this role (0-based): with the call, its identity. */
  occurrence: number;
  /**
   * A check of a reply that parsed and validated (the authorization policy's, say): the reason it is
   * refused, re-asked with like a validation error, or null to accept it.
   */
  accept?: (value: unknown) => string | null;
  /**
   * Every rule the reply must meet besides its format — what `accept` and the SOP's checks after the step
   * refuse — in the words the prompt states them (a check never applies a rule the prompt did not state).
   */
  rules?: readonly string[];
  signal?: AbortSignal;
}

/** The one way to the model (src/capabilities/model/gateway.ts). */
export interface ModelPort {
  ask(request: AskRequest): Promise<unknown>;
}

/** The generated repository. */
export interface RepositoryPort {
  /** Its work tree. */
  root: string;
  /** A file of the work tree as it is now, or null when there is none. */
  readFile(file: string): Promise<string | null>;
  /** Runs `work` with commits held back, so the work tree does not change under it (a test round). */
  withCommitsHeld<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once every artifact posted so far is committed — its files on disk — e.g. before running tests. */
  filesOnDisk(): Promise<void>;
}

/** What a command is judged against besides the policy: the repository's own tools, and the test commands it declares. */
export interface CommandContext {
  runners?: ProjectRunners;
  declared?: readonly { argv: readonly string[]; source: string }[];
}

/** A rule of the policy in a prompt's words, and whether any reply can meet it. */
export interface PolicyRule {
  text: string;
  satisfiable: boolean;
}

/** What each role may write and run (sops/policy.yaml). */
export interface PolicyPort {
  /** Where the policy comes from, for a hint that says what to edit. */
  source: string;
  /** Why `role` may not write each of these paths refused; empty when it may write them all. */
  writeRefusals(role: string, paths: readonly string[]): string[];
  /**
   * Why `role` may not run this command, or null when it may; `context`: the repository's own tools and
   * declared commands, which a role with `runInstalled` may run and a refusal names.
   */
  commandRefusal(role: string, command: readonly string[], context?: CommandContext): string | null;
  /** What `role` may write, as a prompt states it (from the lists `writeRefusals` reads); unsatisfiable when it may write nothing. */
  writeRule(role: string): PolicyRule;
  /** What `role` may run, as a prompt states it (from the lists and context `commandRefusal` reads); unsatisfiable when it may run nothing. */
  runRule(role: string, context?: CommandContext): PolicyRule;
  dependencies: {
    install: boolean;
    network: boolean;
    scripts: boolean;
    /** The roles that may install. */
    by: readonly string[];
    registries: { npm: string | null; pip: string | null };
  };
}

export interface ApprovalRequest {
  role: string;
  gate: 'prd' | 'design' | 'code' | 'tests';
  key: string | null;
  round: number;
  /** What the person is asked to approve, as markdown. */
  content: string;
}

/** A role's questions for the person before it writes (`clarify`): its n-th round of questions. */
export interface QuestionsRequest {
  role: string;
  round: number;
  questions: readonly { question: string; why: string | null }[];
}

/**
 * A person's say in the run: approval gates (whether a gate is on, and a decision on an artifact held
 * back), and questions asked before a role writes (`--clarify`).
 */
export interface ApprovalPort {
  gated(gate: ApprovalRequest['gate']): boolean;
  decide(request: ApprovalRequest, signal?: AbortSignal): Promise<{ approved: boolean; feedback: string | null }>;
  /** Whether the run lets roles ask the person questions first (`--clarify`). */
  clarifying(): boolean;
  /** The person's answers, one per question in order ("" for no preference). */
  answer(request: QuestionsRequest, signal?: AbortSignal): Promise<string[]>;
}

/** What a role tells the user it is doing (progress lines); a verdict travels as `passed`, never in the text. */
export type Progress =
  | { kind: 'tests-start'; detail: string }
  | { kind: 'tests-end'; detail: string; passed: boolean }
  /** A fast check of a draft file (before its model review). */
  | { kind: 'check'; detail: string };

/** The run as a step sees it. */
export interface RunPort {
  /**
   * Aborted when the run is asked to stop after the steps in flight (a first Ctrl-C): `eachFile` then
   * finishes the files under way, starts no more, and fails with INTERRUPTED (resumed, it carries on).
   */
  windDown: AbortSignal;
  /** How many files `eachFile` works on at once (`--concurrency`). */
  concurrency: number;
  /**
   * Counts `work` as in flight until it settles (src/engine/run/work-in-flight.ts): a run does not stop
   * with awaiting-approval while it goes on. Used for a test round; model calls and posts are counted where they are made.
   */
  trackWork<T>(work: () => Promise<T>): Promise<T>;
  report(progress: Progress): void;
  /**
   * A point the run may stop at (`--until`, src/engine/run/stop-points.ts): resolves at once, unless the
   * run stops at `point` — then it holds until the run is stopped.
   */
  stopAt(point: string, signal?: AbortSignal): Promise<void>;
}

/** The machines of per-file SOPs a step runs (`eachFile`). */
export interface MachinePort {
  /** The per-file SOPs this role's steps run, by the name the step gives (resolved, checked). */
  subSops: Readonly<Record<string, SopFile>>;
  /** A SOP's machine, with these ports and this context to start from besides the defaults. */
  build(sop: SopFile, ports: Ports, initial?: Partial<RoleContext>): AnyStateMachine;
}

/** How a document (a view's value) reads to a person. */
export interface DocumentsPort {
  /** As markdown: an artifact held back for approval. */
  markdown(value: unknown): string;
  /** In one line appended to a reason: a test report as its failing tests, say. */
  line(value: unknown): string;
}

export interface Ports {
  role: RolePort;
  board: BoardPort;
  publish: Publish;
  model: ModelPort;
  repository: RepositoryPort;
  policy: PolicyPort;
  /** How generated code runs (the sandbox's mode and limits). */
  sandbox: SandboxSettings;
  approvals: ApprovalPort;
  run: RunPort;
  machines: MachinePort;
  documents: DocumentsPort;
}
