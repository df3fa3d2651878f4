/**
 * The count of work under way that the run waits on — model calls, posts on the board, test rounds — kept
 * in one place. None, while an approval waits, means the run waits on a person (decide-outcome.ts).
 */
export class WorkInFlight {
  private under = 0;

  /** How many pieces of work are under way. */
  get count(): number {
    return this.under;
  }

  /** A piece of work starts; `end` must follow once (use `track` where the work is one promise). */
  begin(): void {
    this.under++;
  }

  end(): void {
    this.under--;
  }

  /** Counts `work` as under way until it settles, and hands back its result. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.begin();
    try {
      return await work();
    } finally {
      this.end();
    }
  }
}
