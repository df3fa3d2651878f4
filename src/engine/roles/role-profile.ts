/** roles/<id>/role.yaml: who a role is. Rendered into every prompt of that role. */
import path from 'node:path';
import { z } from 'zod';
import { loadYamlFile } from '../../ground/files/index.ts';

/**
 * `reviewer:` in role.yaml: who reviews the files of a role held by one person (`--engineers 1`) — a
 * second person of the role who writes no files — and, with any number of people, the goal and
 * constraints a file's reviewer is given instead of the writer's.
 */
export const RoleReviewer = z
  .object({
    name: z.string().min(1),
    title: z.string().min(1).optional(),
    goal: z.string().min(1).optional(),
    constraints: z.array(z.string().min(1)).optional(),
  })
  .strict();

export const RoleProfile = z
  .object({
    name: z.string().min(1),
    title: z.string().min(1),
    goal: z.string().min(1),
    constraints: z.array(z.string().min(1)).default([]),
    reviewer: RoleReviewer.optional(),
  })
  .strict();

/** Whose work a reviewer is judging: set only on the profile a file's review is asked of (`reviewing`). */
export interface Reviewed {
  name: string;
  title: string;
}

/**
 * `seat`: which of several people holding the role this is (1…N), when a run hires several.
 * `reviewing`: on the profile a review is asked of, the writer of the work under review.
 */
export type RoleProfile = z.infer<typeof RoleProfile> & { id: string; email: string; seat?: number; reviewing?: Reviewed };

/**
 * The people holding one role when a run hires several (`--engineers N`): the same role — its SOP,
 * templates and policy — under N names, each authoring its own commits. One seat is the role itself.
 */
export function seatsOf(profile: RoleProfile, count: number): RoleProfile[] {
  if (count <= 1) return [profile];
  const [local, domain] = profile.email.split('@') as [string, string];
  return Array.from({ length: count }, (_, i) => ({
    ...profile,
    name: i === 0 ? profile.name : `${profile.name} ${i + 1}`,
    title: `${profile.title} ${i + 1}`,
    email: `${local}-${i + 1}@${domain}`,
    seat: i + 1,
  }));
}

/**
 * The second person of a role held by one (`--engineers 1`), who reviews its files and writes none: named
 * by role.yaml's `reviewer` (else "<name> 2"), titled "Reviewing <title>", with an address of their own —
 * so that no file is reviewed by the person who wrote it.
 */
export function reviewerOf(profile: RoleProfile): RoleProfile {
  const { seat: _seat, ...role } = profile;
  const [local, domain] = profile.email.split('@') as [string, string];
  return {
    ...role,
    name: profile.reviewer?.name ?? `${profile.name} 2`,
    title: profile.reviewer?.title ?? `Reviewing ${profile.title}`,
    email: `${local}-reviewer@${domain}`,
  };
}

/**
 * A reviewer as a review prompt presents them: judging the writer's work (`reviewing`, named in
 * roles/_shared/role.hbs), with a reviewer's goal and constraints rather than the writer's.
 */
export function asReviewerOf(reviewer: RoleProfile, writer: RoleProfile): RoleProfile {
  const goal =
    reviewer.reviewer?.goal ??
    'Review the work of another person of your role against the criteria you are given: approve what meets them, and name each problem that breaks one, where it is and what to change.';
  return { ...reviewer, goal, constraints: reviewer.reviewer?.constraints ?? [], reviewing: { name: writer.name, title: writer.title } };
}

export async function loadRoleProfile(rolesDir: string, id: string): Promise<RoleProfile> {
  const file = path.join(rolesDir, id, 'role.yaml');
  const profile = await loadYamlFile(file, RoleProfile);
  return { ...profile, id, email: `${id}@sopworks.local` };
}
