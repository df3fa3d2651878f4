/** `mapRepository`: a change run's bounded map of the repository as it is at the base (repository-map.ts). */
import { z } from 'zod';
import * as C from '../../documents/change-schemas.ts';
import { git } from '../../host/git/git-process.ts';
import { defineStep } from '../../engine/steps/step.ts';
import { mapRepository as mapAt } from './repository-map.ts';

export const mapRepository = defineStep({
  description:
    "Map the repository of a change run as it is at the base: file tree, manifests, README, each source file's interface — " +
    'bounded (src/capabilities/change/repository-map.ts), never its whole content. The output is a RepositoryMap (publish it for the others).',
  params: z.object({}).strict(),
  output: C.RepositoryMap,
  async run(_input, ports) {
    const root = ports.repository.root;
    // Before the run's first commit the work tree's HEAD is the base; later (a restored step) the map on the board stands.
    const earlier = ports.board.latest<C.RepositoryMap>('RepositoryMap');
    if (earlier) return earlier.payload;
    const [head, branch] = await Promise.all([git(root, ['rev-parse', 'HEAD']), git(root, ['symbolic-ref', '--short', 'HEAD'])]);
    const name = branch.stdout.trim();
    const slug =
      name
        .split('/')
        .at(-1)!
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'change';
    return mapAt({ root, base: head.stdout.trim(), branch: name, slug });
  },
});
