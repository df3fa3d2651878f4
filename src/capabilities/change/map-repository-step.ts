/** `mapRepository`: a change run's bounded map of the repository as it is at the base (repository-map.ts). */
import { z } from 'zod';
import { RepositoryMap, type Requirement } from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { slugOf } from '../../ground/files/index.ts';
import { git } from '../../host/git/index.ts';
import { MAP_BOUNDS, mapRepository as mapAt } from './repository-map.ts';

export const mapRepository = defineStep({
  description:
    'Map the repository of a change run as it is at the base: every path (the tree, compressed), manifests, README, how its tests run, and ' +
    "the signatures of the files that matter most to the request — parsed with tree-sitter, ranked by PageRank personalised by the request's " +
    'words — within `tokens` tokens (src/capabilities/change/repository-map.ts); never whole files. The output is a RepositoryMap (publish it for the others).',
  params: z.object({ tokens: z.number().int().min(256).max(32_000).default(MAP_BOUNDS.tokens) }).strict(),
  output: RepositoryMap,
  async run({ params }, ports) {
    const root = ports.repository.root;
    // Before the run's first commit the work tree's HEAD is the base; later (a restored step) the map on the board stands.
    const earlier = ports.board.latest<RepositoryMap>('RepositoryMap');
    if (earlier) return earlier.payload;
    const [head, branch] = await Promise.all([git(root, ['rev-parse', 'HEAD']), git(root, ['symbolic-ref', '--short', 'HEAD'])]);
    const name = branch.stdout.trim();
    const slug = slugOf(name.split('/').at(-1)!, 'change');
    const asked = ports.board.latest<Requirement>('Requirement')?.payload;
    const request = asked?.request ?? asked?.spec ?? '';
    return mapAt({ root, base: head.stdout.trim(), branch: name, slug, request, tokens: params.tokens });
  },
});
