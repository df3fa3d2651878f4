/**
 * Where a run stops early (`--until <point>`): a SOP marks its stop points with `stopAt` steps (the
 * default company: after the PRD, after the design, after the task graph), and the one the run was
 * asked to stop at holds there. Once nothing else is at work, the run ends `paused`
 * (decide-outcome.ts); `resume` goes on to the end — the held step is re-invoked, finds the run no
 * longer stopping there, and passes.
 */
export interface StopReached {
  role: string;
  point: string;
}

export class StopPoints {
  private readonly held: StopReached[] = [];

  constructor(
    /** The point this run stops at; null: it stops at none. */
    readonly until: string | null,
    private readonly onChange: () => void,
  ) {}

  /** Where the run holds now. */
  get reached(): readonly StopReached[] {
    return this.held;
  }

  /** Resolves at once unless the run stops at `point`; then holds until the run is stopped. */
  pass(role: string, point: string, signal?: AbortSignal): Promise<void> {
    if (this.until !== point) return Promise.resolve();
    return new Promise<void>((_, reject) => {
      this.held.push({ role, point });
      this.onChange();
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
}
