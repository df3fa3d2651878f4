/** `--json` of a command whose handler takes it alone: commander gives a boolean (false by default). */
import { z } from 'zod';
import { parseOptions } from '../parse-options.ts';

const JsonOnly = z.object({ json: z.boolean().default(false) });

export const jsonFlagOf = (options: unknown, command: string): boolean => parseOptions(JsonOnly, options, command).json;
