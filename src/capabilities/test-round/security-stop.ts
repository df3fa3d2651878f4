/**
 * Two reasons to stop a run that no role's step fails on, watched on the board:
 * - a TestReport that names a security violation (the generated code changed the repository's
 *   metadata or the run's record; the sandbox put it back) — the run ends `failed`, saying so;
 * - a Design whose test command this machine cannot sandbox (a Python project without bubblewrap and
 *   without --allow-unsandboxed, say) — known as soon as the Design is on the board, so the run stops
 *   then, before the engineering and QA calls are paid for.
 * Both end the run the way a failed commit does: a first reason, then a nudge to the run's watcher.
 */
import type { Message, MessageBoard } from '../../engine/board/index.ts';
import { type SandboxFacts, type SandboxSettings, sandboxFacts, sandboxRefusal, sandboxRefusalNow, securityStopReason } from '../../host/sandbox/index.ts';

export interface RunStopper {
  first: string | null;
  notify: () => void;
}

export function stopOnSecurityFindings(board: MessageBoard, stopper: RunStopper, sandbox: SandboxSettings, projectDir: string): () => void {
  // Probed now, while the first model calls are under way, so the Design can be judged on the spot:
  // this subscriber runs before the Design is delivered to anyone, so no role starts on it.
  let facts: SandboxFacts | null = null;
  void sandboxFacts(sandbox).then(
    (found) => (facts = found),
    () => undefined,
  );
  const stop = (reason: string) => {
    stopper.first ??= reason;
    stopper.notify();
  };
  const check = (message: Message) => {
    if (message.type === 'TestReport') {
      const reason = securityStopReason(message.payload as Parameters<typeof securityStopReason>[0]);
      if (reason) stop(reason);
    }
    if (message.type === 'Design') {
      const command = (message.payload as { testCommand?: unknown }).testCommand;
      if (Array.isArray(command) && command.every((word) => typeof word === 'string') && command.length > 0) {
        const now = facts ? sandboxRefusalNow(command, facts, sandbox) : undefined;
        if (now) stop(`the design's test command cannot run here: ${now}`);
        else if (now === undefined) {
          void sandboxRefusal(command, projectDir, sandbox).then((refusal) => {
            if (refusal) stop(`the design's test command cannot run here: ${refusal}`);
          });
        }
      }
    }
  };
  return board.subscribe(check);
}
