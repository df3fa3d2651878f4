/**
 * One role at work: its SOP machine as an XState actor, fed from a mailbox. A board message is
 * delivered when the machine can take it (its current state has a transition for it); until then it
 * waits in the mailbox, so nothing is lost while the role is busy.
 */
import { createActor, type AnyActor, type AnyStateMachine } from 'xstate';
import type { Message } from '../board/message.ts';

export type RoleStatus = { kind: 'working' } | { kind: 'idle' } | { kind: 'stopped' } | { kind: 'error'; error: unknown; state: string };

export class RoleRuntime {
  private readonly actor: AnyActor;
  private readonly mailbox: Message[] = [];
  private lastState = '';
  private failure: { error: unknown; state: string } | null = null;

  constructor(
    readonly id: string,
    machine: AnyStateMachine,
    private readonly onChange: (role: RoleRuntime) => void,
  ) {
    this.actor = createActor(machine);
    this.actor.subscribe({
      next: (snapshot) => {
        this.lastState = stateName(snapshot.value);
        this.pump();
        this.onChange(this);
      },
      error: (error) => {
        this.failure = { error, state: this.lastState };
        this.onChange(this);
      },
    });
  }

  start(): void {
    this.actor.start();
    this.lastState = stateName(this.actor.getSnapshot().value);
  }

  stop(): void {
    this.actor.stop();
  }

  deliver(message: Message): void {
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
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status === 'done' || snapshot.status === 'stopped') return { kind: 'stopped' };
    const running = Object.keys(snapshot.children ?? {}).length > 0;
    return running ? { kind: 'working' } : { kind: 'idle' };
  }

  private pump(): void {
    for (let i = 0; i < this.mailbox.length; i++) {
      const message = this.mailbox[i]!;
      const event = { type: message.type, message };
      const snapshot = this.actor.getSnapshot();
      if (snapshot.status === 'active' && snapshot.can(event)) {
        this.mailbox.splice(i, 1);
        this.actor.send(event);
        return; // the send re-enters pump through the subscription
      }
    }
  }
}

const stateName = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}.${stateName(v)}`)
        .join(',');
