/**
 * Work done ahead of need while the process would otherwise wait — on files at start-up, on the model
 * later: compiling templates, turning schemas into JSON Schema, compiling globs. Each costs a few ms
 * the first time, which would otherwise be paid on the run's critical path when the step that needs
 * it comes.
 *
 * One task per turn of the event loop, so a file or a reply that is ready waits for at most one task.
 * A task that fails is dropped: the step that needs the work does it again and reports the failure.
 */
export type WarmUpTask = () => void;

export class WarmUp {
  private readonly queue: WarmUpTask[] = [];
  private running = false;

  /** Queues tasks after those already queued, and starts on them on the next turn. */
  add(tasks: readonly WarmUpTask[]): void {
    this.queue.push(...tasks);
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    setImmediate(() => this.next());
  }

  private next(): void {
    const task = this.queue.shift();
    if (!task) {
      this.running = false;
      return;
    }
    try {
      task();
    } catch {
      // see above: the step that needs it does it again, and says what went wrong
    }
    setImmediate(() => this.next());
  }
}
