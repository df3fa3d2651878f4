/** The manifests a Node install is checked against: the root's and each workspace's package.json, read on the host. */
import type { CheckedManifest, NodeCheckContext } from './node-installed-check.ts';
import type { InstallPlan } from './plan-types.ts';
import { OutsideProject, readProjectFile } from './project-file.ts';

export async function manifestsOf(plan: InstallPlan, projectDir: string): Promise<CheckedManifest[]> {
  const manifests: CheckedManifest[] = [];
  for (const folder of ['', ...plan.workspaces.map((w) => w.folder)]) {
    let text: string | null = null;
    try {
      text = readProjectFile(projectDir, folder ? `${folder}/package.json` : 'package.json');
    } catch (error) {
      if (!(error instanceof OutsideProject)) throw error;
    }
    if (text === null) continue;
    try {
      manifests.push({ folder, manifest: JSON.parse(text) as Record<string, unknown> });
    } catch {
      // Checked before the install: one that no longer parses has nothing to check against.
    }
  }
  return manifests;
}

export const nodeContext = (plan: InstallPlan, projectDir: string): NodeCheckContext => ({ projectDir, workspaces: plan.workspaces, catalogs: plan.catalogs });
