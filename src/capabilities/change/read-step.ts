/** `read`: the files a role asked to read (a ReadRequest), from the work tree, bounded (read-files.ts). */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { readRequestedFiles } from './read-files.ts';

export const read = defineStep({
  description:
    'Read the files a ReadRequest in a slot (`from`) names, from the work tree: at most `maxFiles`, each at most `maxChars` characters. ' +
    'Missing, binary, huge or unsafe files are refused with the reason. The output is `files` (path, content) and `refused` (path, reason).',
  params: z
    .object({
      from: z.string().min(1),
      maxFiles: z.number().int().min(1).max(40).default(8),
      maxChars: z.number().int().min(100).max(200_000).default(24_000),
    })
    .strict(),
  output: C.ReadFiles,
  async run({ params, view }, ports) {
    const request = C.ReadRequest.parse(await view(params.from));
    return readRequestedFiles(ports.repository.root, request, { maxFiles: params.maxFiles, maxChars: params.maxChars });
  },
});
