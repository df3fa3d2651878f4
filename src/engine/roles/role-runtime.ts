/**
 * One role at work: its SOP machine as an XState actor, fed from a mailbox. A board message is
 * delivered when the machine can take it (its current state has a transition for it); until then it
 * waits in the mailbox, so nothing is lost while the role is busy. The runtime remembers which messages
 * it delivered, so a restored role is given exactly the ones it had not taken yet.
 */
import { type AnyActor, type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import type { Message } from '../board/index.ts';
import { stateName } from './state-name.ts';

export type RoleStatus = { kind: 'working' } | { kind: 'idle' } | { kind: 'stopped' } | { kind: 'error'; error: unknown; state: string };

export interface RoleRestore {
  snapshot: unknown | null;
  delivered: readonly number[];
}

export interface RoleProgress {
  state: string;
  status: 'active' | 'done' | 'error' | 'stopped';
  /**
   * The persisted snapshot and the messages it has taken, when the machine is active or done; null once
   * it errored or was stopped — the last active pair is the one to restore (a resume retries the step).
   */
  restorable: { snapshot: unknown; delivered: number[] } | null;
}

export class RoleRuntime {
  private readonly actor: AnyActor;
  private readonly mailbox: Message[] = [];
  private readonly delivered: Set<number>;
  private lastState = '';
  private failure: { error: unknown; state: string } | null = null;
  private stopAfterStep = false;
  private stopped = false;

  constructor(
    readonly id: string,
    machine: AnyStateMachine,
    private readonly onChange: (role: RoleRuntime) => void,
    restore: RoleRestore | null = null,
  ) {
    this.delivered = new Set(restore?.delivered ?? []);
    this.actor = createActor(machine, restore?.snapshot ? { snapshot: restore.snapshot as Snapshot<unknown> } : {});
    this.actor.subscribe({
      next: (snapshot) => {
        this.lastState = stateName(snapshot.value);
        this.onChange(this);
        if (this.stopAfterStep) this.stop();
        else this.pump();
      },
      error: (error) => {
        this.failure = { error, state: this.lastState };
        this.onChange(this);
      },
    });
  }

  start(): void {
    this.lastState = stateName(this.actor.getSnapshot().value);
    this.actor.start();
  }

  /** Stops at once; an invoked step in flight is aborted (and re-run on resume). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.actor.stop();
    this.onChange(this);
  }

  /** Lets the step in flight finish, then stops before the next one; stops now if idle. */
  finishStepThenStop(): void {
    this.stopAfterStep = true;
    if (this.status().kind !== 'working') this.stop();
  }

  /** Whether a message has been given to the machine already (in this process or before a restart). */
  hasTaken(message: Message): boolean {
    return this.delivered.has(message.seq);
  }

  deliver(message: Message): void {
    if (this.delivered.has(message.seq) || this.mailbox.some((m) => m.seq === message.seq)) return;
    this.mailbox.push(message);
    this.pump();
  }

  /** The state the machine is in, e.g. "writing" or "review.deciding". */
  get state(): string {
    return this.lastState;
  }

  /** Messages that arrived but that no state of the machine has taken yet. */
  get waiting(): readonly Message[] {
    return this.mailbox;
  }

  status(): RoleStatus {
    if (this.failure) return { kind: 'error', ...this.failure };
    if (this.stopped) return { kind: 'stopped' };
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status !== 'active') return { kind: 'stopped' };
    const running = Object.keys(snapshot.children ?? {}).length > 0;
    return running ? { kind: 'working' } : { kind: 'idle' };
  }

  /** What to persist now. */
  progress(): RoleProgress {
    const snapshot = this.actor.getSnapshot();
    const status = this.failure ? 'error' : this.stopped ? 'stopped' : snapshot.status === 'done' ? 'done' : 'active';
    const persistable = !this.failure && !this.stopped && (snapshot.status === 'active' || snapshot.status === 'done');
    return {
      state: this.lastState,
      status,
      restorable: persistable ? { snapshot: this.actor.getPersistedSnapshot(), delivered: [...this.delivered].sort((a, b) => a - b) } : null,
    };
  }

  private pump(): void {
    if (this.stopped || this.stopAfterStep) return;
    for (let i = 0; i < this.mailbox.length; i++) {
      const message = this.mailbox[i]!;
      const event = { type: message.type, message };
      const snapshot = this.actor.getSnapshot();
      if (snapshot.status === 'active' && snapshot.can(event)) {
        this.mailbox.splice(i, 1);
        this.delivered.add(message.seq);
        this.actor.send(event);
        return; // the send re-enters pump through the subscription
      }
    }
  }
}
