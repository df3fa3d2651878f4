/** `read`: the files a role asked to read (a ReadRequest), from the work tree, whole within bounds, else in part saying what is missing (read-files.ts). */
import { z } from 'zod';
import * as C from '../../documents/index.ts';
import { defineStep } from '../../engine/steps/index.ts';
import { readRequestedFiles } from './read-files.ts';

export const read = defineStep({
  description:
    'Read the files a ReadRequest in a slot (`from`) names, from the work tree: at most `maxFiles`, each whole while it fits `maxChars` ' +
    'characters and all of them `totalChars` (the smaller files whole, the larger sharing the rest alike); past that a file is shown in part, its last line saying which lines and how many characters ' +
    'are not shown. Missing, binary or unsafe files are refused with the reason. The output is `files` (path, content) and `refused` (path, reason).',
  params: z
    .object({
      from: z.string().min(1),
      maxFiles: z.number().int().min(1).max(40).default(8),
      maxChars: z.number().int().min(100).max(200_000).default(24_000),
      totalChars: z.number().int().min(100).max(1_000_000).default(64_000),
    })
    .strict(),
  output: C.ReadFiles,
  async run({ params, view }, ports) {
    const request = C.ReadRequest.parse(await view(params.from));
    return readRequestedFiles(ports.repository.root, request, { maxFiles: params.maxFiles, maxChars: params.maxChars, totalChars: params.totalChars });
  },
});
