/**
 * The company as a mermaid flowchart: who sends which message type to whom. Solid arrows are
 * deliveries (a role watches the type and the message is addressed to it); a message no role reads
 * goes, dashed, to the repository when it commits files, or to "no one" when it does not. Pure.
 */

import type { Vocabulary } from '../steps/index.ts';
import { CLIENT, COMPANY, type FlowRole, messageFlow } from './message-flow.ts';

/** Role ids are lower-case, so the capitalised ids of the other nodes never clash with a role's. */
const REPOSITORY = 'Repository';
const NO_ONE = 'NoOne';
const nodeId = (name: string): string => (name === CLIENT ? 'Client' : name === COMPANY ? 'Company' : name.replace(/[^a-z0-9]/g, '_'));

export function companyFlowchart(roles: readonly FlowRole[], vocabulary: Vocabulary): string {
  const flow = messageFlow(roles, vocabulary);
  const lines = ['flowchart LR', `  ${nodeId(CLIENT)}(["${CLIENT}"])`];
  for (const role of roles) lines.push(`  ${nodeId(role.id)}["${role.id}"]`);
  lines.push(`  ${nodeId(COMPANY)}(["${COMPANY}: ends the run"])`);

  const edges: string[] = [];
  const add = (edge: string) => {
    if (!edges.includes(edge)) edges.push(edge);
  };
  const unread = { repository: false, noOne: false };
  for (const publication of flow.publications) {
    const deliveries = flow.deliveries.filter((d) => d.publication === publication);
    for (const delivery of deliveries) add(`  ${nodeId(publication.from)} -->|${publication.type}| ${nodeId(delivery.to)}`);
    if (deliveries.length > 0) continue;
    const committed = vocabulary.messages[publication.type]?.files !== undefined;
    unread[committed ? 'repository' : 'noOne'] = true;
    add(`  ${nodeId(publication.from)} -.->|${publication.type}| ${committed ? REPOSITORY : NO_ONE}`);
  }
  if (unread.repository) lines.push(`  ${REPOSITORY}[("git repository")]`);
  if (unread.noOne) lines.push(`  ${NO_ONE}[/"no one"/]`);
  return [...lines, ...edges].join('\n') + '\n';
}
