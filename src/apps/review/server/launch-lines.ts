/**
 * What the viewer reads of a run it started: the `--json` lines of `sopworks resume` or `change`
 * (docs/json-lines.schema.json), each checked here with zod for the fields the viewer uses. A line of
 * another type, or one that does not parse, is not an error: the viewer shows what it knows.
 */
import { z } from 'zod';
import { jsonAs } from '../../../ground/json-as.ts';

export const LaunchLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), project: z.string(), projectDir: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string() }),
  z.object({ type: z.literal('call-start'), role: z.string(), action: z.string(), key: z.string().nullable() }),
  z.object({ type: z.literal('message'), from: z.string(), to: z.string(), messageType: z.string(), summary: z.string() }),
  z.object({ type: z.literal('commit'), role: z.string(), subject: z.string() }),
  z.object({ type: z.enum(['tests-start', 'tests-end', 'check']), role: z.string(), detail: z.string() }),
  z.object({ type: z.literal('summary'), outcome: z.string().nullable(), reason: z.string().nullable(), exitCode: z.number().int() }),
  z.object({ type: z.literal('error'), message: z.string(), hint: z.string().nullable(), exitCode: z.number().int() }),
]);
export type LaunchLine = z.infer<typeof LaunchLine>;

/** A line of stdout, parsed; null when it is not one the viewer reads. */
export const parseLaunchLine = (text: string): LaunchLine | null => jsonAs(LaunchLine, text);

/** A progress line as a person reads it, as the terminal would show it; null for lines that are not progress. */
export function progressText(line: LaunchLine): string | null {
  switch (line.type) {
    case 'notice':
      return line.text;
    case 'call-start':
      return `${line.role} … ${line.action}${line.key ? ` ${line.key}` : ''}`;
    case 'message':
      return `${line.from} → ${line.to} ${line.messageType}: ${line.summary}`;
    case 'commit':
      return `${line.role} committed: ${line.subject}`;
    case 'tests-start':
    case 'tests-end':
    case 'check':
      return `${line.role} ${line.detail}`;
    default:
      return null;
  }
}
