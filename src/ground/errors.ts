/**
 * Every error a user can meet carries a stable code and says what to do next.
 * `SopworksError.isInstance` works across module copies (checks a marker, not the prototype).
 */
const MARKER = Symbol.for('sopworks.error');

export type ErrorCode =
  | 'USAGE'
  | 'SPEC_INVALID'
  | 'CONFIG_INVALID'
  | 'NO_MODEL'
  | 'SCENARIO_INVALID'
  | 'SCRIPT_EXHAUSTED'
  | 'MODEL_UNREACHABLE'
  | 'MODEL_AUTH'
  | 'MODEL_ERROR'
  | 'MODEL_NOT_FOUND'
  /** A limit of the endpoint (a rate limit, a quota) that resets at a known time: `resumeAt` says when. */
  | 'MODEL_QUOTA'
  | 'REPLY_INVALID'
  | 'SOP_INVALID'
  /** A step's output its own schema refuses: a fault of sopworks, not of the SOP. */
  | 'STEP_OUTPUT_INVALID'
  | 'TEMPLATE_INVALID'
  | 'PATH_UNSAFE'
  | 'OUTPUT_EXISTS'
  | 'OUTPUT_UNWRITABLE'
  | 'TASK_GRAPH_INVALID'
  /** A design its check refuses (a file its writer may not write, a command its tester may not run): the design step's to fix. */
  | 'DESIGN_INVALID'
  /**
   * Two of sopworks' own checks (or its SOP and policy) that no reply can meet at once: sopworks' fault,
   * never the model's, so it ends the step instead of going back to the model (src/engine/sop/build-machine.ts).
   */
  | 'CHECKS_CONFLICT'
  | 'TEST_RUN_FAILED'
  | 'GIT_FAILED'
  /** A repository whose git configuration sopworks cannot see whole or neutralise: no git runs there. */
  | 'REPOSITORY_REFUSED'
  | 'PROJECT_BUSY'
  | 'NOT_RESUMABLE'
  | 'BUDGET_EXHAUSTED'
  | 'LOOP_DETECTED'
  | 'APPROVAL_REJECTED'
  | 'RUN_ENDED'
  | 'INTERRUPTED'
  | 'QUEUE_UNREACHABLE'
  | 'QUEUE_MISCONFIGURED'
  | 'INSTALL_INCOMPLETE'
  | 'WRITE_FENCED';

export class SopworksError extends Error {
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  /** What the user can do about it. */
  readonly hint: string | undefined;
  /** When what stopped this is known to pass (a limit's reset), as an ISO 8601 time. */
  readonly resumeAt: string | undefined;

  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown; resumeAt?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SopworksError';
    this.code = code;
    this.hint = options.hint;
    this.resumeAt = options.resumeAt;
  }

  static isInstance(value: unknown): value is SopworksError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** One line for a user: the message, then the hint. */
/** Codes of input the user can fix before a run starts (the command line exits 2 on them). */
const USERS_TO_FIX: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'USAGE',
  'SPEC_INVALID',
  'CONFIG_INVALID',
  'NO_MODEL',
  'SCENARIO_INVALID',
  'SOP_INVALID',
  'TEMPLATE_INVALID',
  'OUTPUT_EXISTS',
  'OUTPUT_UNWRITABLE',
  'MODEL_UNREACHABLE',
  'MODEL_AUTH',
  'PROJECT_BUSY',
  'NOT_RESUMABLE',
  'QUEUE_UNREACHABLE',
  'QUEUE_MISCONFIGURED',
  'REPOSITORY_REFUSED',
]);

/** Whether an error is input the user can fix before a run starts (by its code; anything else is not). */
export const userCanFix = (error: unknown): boolean => SopworksError.isInstance(error) && USERS_TO_FIX.has(error.code);

export function describeError(error: unknown): string {
  if (SopworksError.isInstance(error)) {
    return error.hint ? `${error.message}\n  ${error.hint}` : error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
