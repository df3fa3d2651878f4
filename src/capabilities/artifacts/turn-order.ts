/**
 * The order in which per-file jobs post their board messages: file i's turn comes once every earlier
 * file's turn has passed (it posted, or ended without posting, or was skipped), whatever order the jobs
 * finish in. Counts the messages, so a job knows its message's offset in the batch.
 */
interface TurnWaiter {
  index: number;
  resolve: (offset: number) => void;
  reject: (error: unknown) => void;
}

export class TurnOrder {
  /** Per file: messages posted, and whether its turn has passed. */
  private readonly messages: number[];
  private readonly passed: boolean[];
  private readonly waiters: TurnWaiter[] = [];
  private failure: { error: unknown } | null = null;

  constructor(files: number) {
    this.messages = Array.from({ length: files }, () => 0);
    this.passed = Array.from({ length: files }, () => false);
  }

  /** Resolves with the number of messages the earlier files posted, once all of their turns have passed. */
  wait(index: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      if (this.failure) return reject(this.failure.error);
      const offset = this.offsetOf(index);
      if (offset !== null) return resolve(offset);
      this.waiters.push({ index, resolve, reject });
    });
  }

  hasPassed(index: number): boolean {
    return this.passed[index]!;
  }

  /** Counts one message of file `index` and passes its turn. */
  post(index: number): void {
    this.messages[index]!++;
    this.pass(index);
  }

  pass(index: number): void {
    this.passed[index] = true;
    for (const waiter of [...this.waiters]) {
      const offset = this.offsetOf(waiter.index);
      if (offset === null) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(offset);
    }
  }

  /** Every waiting job, and every later one, is told the run failed. */
  fail(error: unknown): void {
    this.failure = { error };
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  get published(): number {
    return this.messages.reduce((a, b) => a + b, 0);
  }

  private offsetOf(index: number): number | null {
    let count = 0;
    for (let i = 0; i < index; i++) {
      if (!this.passed[i]) return null;
      count += this.messages[i]!;
    }
    return count;
  }
}
