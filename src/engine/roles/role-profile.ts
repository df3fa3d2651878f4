/** roles/<id>/role.yaml: who a role is. Rendered into every prompt of that role. */
import path from 'node:path';
import { z } from 'zod';
import { loadYamlFile } from '../../ground/files/index.ts';

export const RoleProfile = z
  .object({
    name: z.string().min(1),
    title: z.string().min(1),
    goal: z.string().min(1),
    constraints: z.array(z.string().min(1)).default([]),
  })
  .strict();

/** `seat`: which of several people holding the role this is (1…N), when a run hires several. */
export type RoleProfile = z.infer<typeof RoleProfile> & { id: string; email: string; seat?: number };

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

export async function loadRoleProfile(rolesDir: string, id: string): Promise<RoleProfile> {
  const file = path.join(rolesDir, id, 'role.yaml');
  const profile = await loadYamlFile(file, RoleProfile);
  return { ...profile, id, email: `${id}@sopworks.local` };
}
