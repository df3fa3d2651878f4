/**
 * Scenario files: scripted replies for the scripted provider (a test double and the offline demo).
 * Format documented in docs/scenarios.md.
 */
import fs from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';

const ReplyEntry = z
  .object({
    role: z.string().min(1),
    action: z.string().min(1),
    key: z.string().min(1).optional(),
    /** The raw text of the reply. */
    reply: z.string().optional(),
    /** A structured reply, sent as JSON text. */
    json: z.unknown().optional(),
    /** A source file's content, sent as one fenced code block. */
    code: z.string().optional(),
    lang: z.string().optional(),
    /** Note for readers of the scenario; ignored. */
    note: z.string().optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    const forms = ['reply', 'json', 'code'].filter((k) => (entry as Record<string, unknown>)[k] !== undefined);
    if (forms.length !== 1) {
      ctx.addIssue({ code: 'custom', message: `give exactly one of reply, json or code (found ${forms.join(', ') || 'none'})` });
    }
  });

export const Scenario = z
  .object({
    /** The spec this scenario was written for; `run` uses it when no spec is given. */
    spec: z.string().min(1).optional(),
    /** The default project name. */
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    replies: z.array(ReplyEntry).min(1),
  })
  .strict();

export type Scenario = z.infer<typeof Scenario>;
export type ScriptedReply = z.infer<typeof ReplyEntry>;

export async function loadScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new SopworksError('SCENARIO_INVALID', `Cannot read scenario file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, {
      hint: 'Pass an existing YAML or JSON file: --llm scripted:examples/wordfreq.yaml',
    });
  }
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new SopworksError('SCENARIO_INVALID', `Scenario file ${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
  const parsed = Scenario.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n');
    throw new SopworksError('SCENARIO_INVALID', `Scenario file ${file} does not match the scenario format:\n${issues}`, {
      hint: 'See docs/scenarios.md for the format.',
    });
  }
  return parsed.data;
}

/** The text a scripted entry sends. */
export function replyText(entry: ScriptedReply): string {
  if (entry.reply !== undefined) return entry.reply;
  if (entry.json !== undefined) return JSON.stringify(entry.json, null, 2);
  const content = entry.code ?? '';
  return '```' + (entry.lang ?? '') + '\n' + content + (content.endsWith('\n') ? '' : '\n') + '```';
}
