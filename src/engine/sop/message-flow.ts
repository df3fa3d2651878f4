/**
 * Who sends which message type to whom. Publications come from the SOPs (`publish` steps; `conclude`
 * posts an Outcome), subscriptions from company.yaml (`watches`). A message reaches a role that watches
 * its type when it is addressed to all or to that role, and never its own sender — the rule the
 * company applies when it delivers board messages. Pure.
 */
import type { SopFile, Vocabulary } from '../steps/index.ts';
import { stepsNamed, type YamlPath } from './sop-walk.ts';

/** The requirement is posted by the client; the company itself reads the Outcome that ends a run. */
export const CLIENT = 'client';
export const COMPANY = 'company';
export const OUTCOME = 'Outcome';

export interface FlowRole {
  id: string;
  watches: string[];
  sop: SopFile | null;
  /** The per-file SOPs the role's `eachFile` steps run, by name: what they publish, the role publishes. */
  subSops?: Record<string, SopFile>;
}

export interface Publication {
  from: string;
  type: string;
  /** A role id, or "all". */
  to: string;
  /** Where in the sender's SOP the step is (null for the client). */
  at: YamlPath | null;
}

export interface Subscription {
  role: string;
  type: string;
  /** Index of the role in company.yaml and of the type in its watches. */
  roleIndex: number;
  watchIndex: number;
}

export interface Delivery {
  publication: Publication;
  /** A role id, or "company" for the Outcome. */
  to: string;
}

export interface MessageFlow {
  publications: Publication[];
  subscriptions: Subscription[];
  deliveries: Delivery[];
}

function publicationsOf(role: FlowRole, vocabulary: Vocabulary): Publication[] {
  if (!role.sop) return [];
  const published = stepsNamed<{ type: string; to: string }>(role.sop, vocabulary, 'publish').flatMap((step) =>
    step.params ? [{ from: role.id, type: step.params.type, to: step.params.to, at: step.at }] : [],
  );
  const concluded = stepsNamed(role.sop, vocabulary, 'conclude').map((step) => ({ from: role.id, type: OUTCOME, to: 'all', at: step.at }));
  // A per-file SOP's steps are located in its own file, not the role's: they carry no path here.
  const parts = Object.values(role.subSops ?? {}).flatMap((sop) => publicationsOf({ ...role, sop, subSops: {} }, vocabulary).map((p) => ({ ...p, at: null })));
  return [...published, ...concluded, ...parts];
}

/** `vocabulary`: the steps the SOPs name (`publish` and `conclude` are the engine's own). */
export function messageFlow(roles: readonly FlowRole[], vocabulary: Vocabulary): MessageFlow {
  const publications: Publication[] = [
    { from: CLIENT, type: 'Requirement', to: 'all', at: null },
    ...roles.flatMap((role) => publicationsOf(role, vocabulary)),
  ];
  const subscriptions = roles.flatMap((role, roleIndex) => role.watches.map((type, watchIndex) => ({ role: role.id, type, roleIndex, watchIndex })));
  const deliveries: Delivery[] = [];
  for (const publication of publications) {
    for (const subscription of subscriptions) {
      const addressed = publication.to === 'all' || publication.to === subscription.role;
      if (subscription.type === publication.type && addressed && publication.from !== subscription.role) {
        deliveries.push({ publication, to: subscription.role });
      }
    }
    if (publication.type === OUTCOME) deliveries.push({ publication, to: COMPANY });
  }
  return { publications, subscriptions, deliveries };
}
