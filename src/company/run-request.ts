/** What a run is started or resumed with. */
import type { AnswerPerson, ApprovalPolicy, AskPerson } from '../capabilities/approvals/index.ts';
import type { BudgetLimits, Price, Provider } from '../capabilities/model/index.ts';
import type { Policy } from '../capabilities/policy/index.ts';
import type { RunLease, StopSignals } from '../engine/run/index.ts';
import type { SandboxSettings } from '../host/sandbox/index.ts';
import type { Company } from './load-company.ts';
import type { RunEvent } from './run-events.ts';
import type { LlmRecord, RunRecord } from './run-record.ts';

export interface CommonRequest {
  company: Company;
  provider: Provider;
  maxRepairs: number;
  /** The model's price (null when unknown) and the largest reply a call may produce. */
  price?: Price | null;
  maxOutputTokens?: number;
  /** Where to write the run's exchanges as a scenario file, to replay it offline. */
  recordTo?: string | null;
  onEvent?: (event: RunEvent) => void;
  stop?: StopSignals;
  /** What each role may write and run; default: <sops>/policy.yaml, else the default policy. */
  policy?: Policy;
  /** How generated code runs; default: bubblewrap where it works, the default limits. */
  sandbox?: SandboxSettings;
  /** Who decides on artifacts held back for approval, when `--yes` is not given: null when nobody is there. */
  askPerson?: AskPerson | null;
  /** Who answers a role's questions (`--clarify`), when `--yes` is not given: null when nobody is there. */
  answerPerson?: AnswerPerson | null;
  /** A person's guidance for the step that failed (`resume --hint`), shown when it is asked again. */
  guidance?: string | null;
  /** A queued run's lease, which its lock is taken under (src/engine/run/run-lock.ts); none for a run started by hand. */
  lease?: RunLease | null;
}

interface StartCommon extends CommonRequest {
  project: string;
  /** The folder to create the repository in (must not exist yet). */
  projectDir: string;
  llm: LlmRecord;
  budget?: BudgetLimits;
  approvals?: ApprovalPolicy;
  /** How many files the Engineer works on at once (default DEFAULT_CONCURRENCY); kept in run.json for resume. */
  concurrency?: number;
  /** How many people hold each role that writes files one per file (`eachFile`): `--engineers N`, default 1. */
  engineers?: number;
  /** The point to stop at (`--until`: a `stopAt` step of the company's SOPs); the run then ends `paused`. */
  until?: string | null;
  /** The person's instructions for the run (`--instructions FILE`, its text); a change adds its repository's own. */
  instructions?: string | null;
}

/** A new project, made from a spec. */
export interface NewProjectRequest extends StartCommon {
  spec: string;
  change?: undefined;
}

/**
 * A change run (sopworks change): the project folder is a work tree of an existing repository, already
 * checked out on the change's branch. `request`: what the person asked for, in their words — posted as the
 * Requirement's `request`, read by the change SOPs' `request` view; `record` is kept in run.json
 * (src/capabilities/change/).
 */
export interface ChangeRunRequest extends StartCommon {
  spec?: undefined;
  change: { request: string; record: Record<string, unknown> };
}

export type StartRequest = NewProjectRequest | ChangeRunRequest;

export interface ResumeRequest extends CommonRequest {
  projectDir: string;
  /** What the run was started with (run.json); the provider may differ (e.g. another model). */
  record: RunRecord;
}
