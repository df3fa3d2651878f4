/** What a role's SOP machine may use: the only doors from a SOP to the outside world. */
import type { MessageBoard } from '../board/MessageBoard.ts';
import type { Draft, Message } from '../board/message.ts';
import type { Gateway } from '../llm/Gateway.ts';
import type { RoleProfile } from '../roles/role-profile.ts';
import type { Workspace } from '../workspace/Workspace.ts';

export interface RoleServices {
  profile: RoleProfile;
  board: MessageBoard;
  gateway: Gateway;
  workspace: Workspace;
  /** Posts a message on the board and commits the files it carries, authored by this role. */
  publish(draft: Draft): Promise<Message>;
  /** Tells the user what the role is doing (progress lines). */
  report(event: { kind: 'tests-start' | 'tests-end'; detail: string }): void;
}
