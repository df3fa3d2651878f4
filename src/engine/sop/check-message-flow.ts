/**
 * Checks the company as a whole: every message type a role watches reaches it from someone, every
 * message a SOP takes (`on: Type`) is one it is sent, every message it watches is one it takes, and
 * every message published goes somewhere. Unknown message types are reported by the caller.
 */

import type { SopFile, Vocabulary } from '../steps/index.ts';
import { type Diagnostic, sopError, sopWarning } from './diagnostic.ts';
import { type FlowRole, type MessageFlow, messageFlow, OUTCOME } from './message-flow.ts';
import { statesOf, stepsNamed, type YamlPath } from './sop-walk.ts';
import type { Locator } from './yaml-diagnostics.ts';

export interface CheckedRole extends FlowRole {
  /** Locates a path in the role's SOP file (null when the SOP could not be read). */
  sopWhere: Locator | null;
}

/**
 * `allSopsRead`: false when some SOP could not be read; what it publishes is then unknown, so the checks
 * that need every sender (a watched type nobody sends, a run that cannot end done) are skipped rather
 * than reported wrongly — they run once the file is fixed.
 */
export function checkMessageFlow(
  roles: readonly CheckedRole[],
  companyWhere: (at: YamlPath) => string,
  allSopsRead: boolean,
  vocabulary: Vocabulary,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const flow = messageFlow(roles, vocabulary);
  const hired = new Set(roles.map((r) => r.id));
  const types = new MessageTypeFacts(vocabulary);
  roles.forEach((role, roleIndex) => {
    if (allSopsRead) problems.push(...checkSenders(role, roleIndex, flow, companyWhere, types));
    if (role.sop && role.sopWhere) {
      problems.push(
        ...checkTaken(role, role.sop, role.sopWhere, roleIndex, companyWhere, types),
        ...checkPublished(role, role.sop, role.sopWhere, flow, hired, types),
      );
    }
  });
  const concludesDone = roles.some(
    (role) => role.sop && stepsNamed<{ outcome: string }>(role.sop, vocabulary, 'conclude').some((step) => step.params?.outcome === 'done'),
  );
  if (allSopsRead && !concludesDone) {
    problems.push(
      sopWarning(
        companyWhere(['roles']),
        `no role has a conclude step with outcome: done, so a run can never end done; add one where the work is finished (the QA SOP does it when the tests pass)`,
      ),
    );
  }
  return problems;
}

/** What the checks ask of the message types: whether one is known, whether it commits files. */
class MessageTypeFacts {
  constructor(readonly vocabulary: Vocabulary) {}
  known(type: string): boolean {
    return type in this.vocabulary.messages;
  }
  commitsFiles(type: string): boolean {
    return this.vocabulary.messages[type]?.files !== undefined;
  }
  get names(): string {
    return Object.keys(this.vocabulary.messages).join(', ');
  }
}

/** The messages a SOP takes (`on: Type`) against the ones its role watches. */
function checkTaken(
  role: CheckedRole,
  sop: SopFile,
  where: Locator,
  roleIndex: number,
  companyWhere: (at: YamlPath) => string,
  types: MessageTypeFacts,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const taken = new Set<string>();
  for (const state of statesOf(sop)) {
    for (const event of Object.keys(state.node.on ?? {})) {
      taken.add(event);
      const at = where.key([...state.at, 'on', event]);
      if (!types.known(event)) {
        problems.push(sopError(at, `"${event}" is not a message type: a SOP's on: events are board messages; use one of ${types.names}`));
      } else if (!role.watches.includes(event)) {
        problems.push(sopWarning(at, `role "${role.id}" is never sent ${event}: add ${event} to its watches in company.yaml, or remove this transition`));
      }
    }
  }
  role.watches.forEach((type, watchIndex) => {
    if (!types.known(type) || taken.has(type)) return;
    problems.push(
      sopError(
        companyWhere(['roles', roleIndex, 'watches', watchIndex]),
        `role "${role.id}" watches ${type}, but no state of its SOP takes it (on: ${type}): each ${type} would wait unread and the run would stall; ` +
          `add on: ${type} to the state that should handle it, or remove ${type} from its watches`,
      ),
    );
  });
  return problems;
}

/** Each publish step: a known type, sent to a hired role, that reaches someone or lands in the repository. */
function checkPublished(role: CheckedRole, sop: SopFile, where: Locator, flow: MessageFlow, hired: Set<string>, types: MessageTypeFacts): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const step of stepsNamed<{ type: string; to: string }>(sop, types.vocabulary, 'publish')) {
    if (!step.params) continue;
    const { type, to } = step.params;
    if (!types.known(type)) {
      problems.push(sopError(where([...step.at, 'input', 'type']), `unknown message type "${type}"; use one of ${types.names}`));
    } else if (to !== 'all' && !hired.has(to)) {
      problems.push(
        sopError(
          where([...step.at, 'input', 'to']),
          `"${to}" is not a hired role, so this ${type} would reach no one; use all or one of ${[...hired].join(', ')}`,
        ),
      );
    } else {
      const reaches = flow.deliveries.some((d) => d.publication.from === role.id && samePath(d.publication.at, step.at));
      if (to !== 'all' && !reaches) {
        problems.push(
          sopWarning(
            where([...step.at, 'input', 'to']),
            `role "${to}" does not watch ${type}, so this message never reaches it; add ${type} to its watches in company.yaml`,
          ),
        );
      } else if (!reaches && type !== OUTCOME && !types.commitsFiles(type)) {
        problems.push(
          sopWarning(
            where(step.at),
            `no role watches ${type} and it commits no files, so publishing it changes nothing; add ${type} to a role's watches in company.yaml, or remove the step`,
          ),
        );
      }
    }
  }
  return problems;
}

const samePath = (a: YamlPath | null, b: YamlPath): boolean => a !== null && a.length === b.length && a.every((part, i) => part === b[i]);

/** A role that no one sends any of its watched types is never given work; one unsent type is dead weight. */
function checkSenders(role: CheckedRole, roleIndex: number, flow: MessageFlow, companyWhere: (at: YamlPath) => string, types: MessageTypeFacts): Diagnostic[] {
  const delivered = new Set(flow.deliveries.filter((d) => d.to === role.id).map((d) => d.publication.type));
  const watched = role.watches.filter((type) => types.known(type));
  if (watched.length > 0 && watched.every((type) => !delivered.has(type))) {
    const published = [...new Set(flow.publications.filter((p) => p.from !== role.id).map((p) => p.type))];
    return [
      sopError(
        companyWhere(['roles', roleIndex, 'watches']),
        `role "${role.id}" is never given work: no role sends it ${watched.join(' or ')}` +
          `; add a publish step for one of them to another role's SOP, or watch a type that is published (${published.join(', ')})`,
      ),
    ];
  }
  return role.watches.flatMap((type, watchIndex) => {
    if (!types.known(type) || delivered.has(type)) return [];
    const others = flow.publications.filter((p) => p.type === type && p.from !== role.id).map((p) => (p.to === 'all' ? p.from : `${p.from} (to ${p.to})`));
    return [
      sopWarning(
        companyWhere(['roles', roleIndex, 'watches', watchIndex]),
        `role "${role.id}" watches ${type}, but no role sends it one` +
          (others.length > 0 ? ` (${type} is sent only by ${others.join(', ')})` : '') +
          `, so its on: ${type} transitions never fire; remove ${type} from its watches, or add a step that publishes it`,
      ),
    ];
  });
}
