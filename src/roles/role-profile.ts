/** roles/<id>/role.yaml: who a role is. Rendered into every prompt of that role. */
import path from 'node:path';
import { z } from 'zod';
import { loadYamlFile } from '../sop/yaml-file.ts';

export const RoleProfile = z
  .object({
    name: z.string().min(1),
    title: z.string().min(1),
    goal: z.string().min(1),
    constraints: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type RoleProfile = z.infer<typeof RoleProfile> & { id: string; email: string };

export async function loadRoleProfile(rolesDir: string, id: string): Promise<RoleProfile> {
  const file = path.join(rolesDir, id, 'role.yaml');
  const profile = await loadYamlFile(file, RoleProfile);
  return { ...profile, id, email: `${id}@sopworks.local` };
}
