/**
 * `sopworks doctor`'s checks of one model on one endpoint, each by a real small request: the model list
 * (reachable, key accepted, model known, context window), a plain chat call (its latency, whether usage is
 * reported), structured output as `json_schema` and as `json_object`, and whether the model returns JSON
 * matching a schema it was given. The result says whether a run would work and what to set.
 */

import { closest } from 'fastest-levenshtein';
import { z } from 'zod';
import { contextWindowOf } from '../endpoint/context-window.ts';
import { lacksV1 } from '../endpoint/not-a-completion.ts';
import { reachHint } from '../endpoint/reach-hint.ts';
import { parseJsonReply } from '../parse/json-reply.ts';
import { strictJsonSchema } from '../strict-json-schema.ts';
import { describeNotJson, errorText, type HttpOutcome, type ProbeTarget, probe } from './http-probe.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface ModelReport {
  baseUrl: string;
  model: string;
  roles: string[];
  checks: Check[];
  /** True when a run with these settings would work. */
  works: boolean;
  /** The structured-output setting to use with this model, once known. */
  structuredOutput: 'json_schema' | 'json_object' | 'off' | null;
  /** What to change, each an instruction: `set NAME=value — why`, `run sopworks init …`. */
  advice: string[];
}

const ModelList = z.object({ data: z.array(z.looseObject({ id: z.string() })) });
const ChatCompletion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), reasoning_content: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable().optional(),
});

/** The small schema of the compliance check: simple enough for any model that can follow one. */
const Sample = z.object({ city: z.string().min(1), population: z.number().int().positive(), landmarks: z.array(z.string()).min(1) }).strict();
const SAMPLE_PROMPT =
  'Give the capital of France, its population as a whole number and two of its landmarks, as a JSON object with the keys city, population and landmarks.';

/**
 * Where the model's name and key come from, so that advice names what this person can change: the
 * command's own setting (`SOPWORKS_MODEL`, `--model-for`, a role in their company.yaml, `init --model`),
 * never a file they may not have.
 */
export interface ModelOrigin {
  /** What to change, given the name to put there: `set SOPWORKS_MODEL=gpt-4o-mini (or --model gpt-4o-mini)`. */
  modelSetting: (name: string) => string;
  /** The variable the key is read from (OPENAI_API_KEY, a role's apiKeyEnv), named when the endpoint refuses the key. */
  keyVariable: string;
  /** What to set when no key was sent and the endpoint asks for one. */
  missingKey: string;
}

export async function checkModel(target: ProbeTarget, model: string, roles: string[], origin: ModelOrigin): Promise<ModelReport> {
  const report: ModelReport = { baseUrl: target.baseUrl, model, roles, checks: [], works: false, structuredOutput: null, advice: [] };
  const add = (name: string, status: CheckStatus, detail: string) => report.checks.push({ name, status, detail });

  // 1. The model list: reachable, key accepted, model known, context window.
  const list = await probe(target, 'GET', '/models');
  if (!reached(list, add, target)) return report;
  if (list.kind === 'json' && (list.status === 401 || list.status === 403)) return keyRefused(report, list, target.apiKey !== null, origin);
  if (list.kind === 'not-json') {
    add('reachable', 'fail', `GET /models answered with ${describeNotJson(list)}`);
    if (lacksV1(target.baseUrl)) report.advice.push(missingV1Hint(target.baseUrl));
    return report;
  }
  const models = list.status === 200 ? ModelList.safeParse(list.body) : null;
  if (list.status === 404 && lacksV1(target.baseUrl)) {
    add('reachable', 'fail', `GET /models is 404 (${errorText(list.body)}): the base URL probably lacks /v1`);
    report.advice.push(missingV1Hint(target.baseUrl));
    return report;
  }
  add('reachable', 'ok', `GET /models answered in ${list.ms} ms`);
  add('key accepted', 'ok', target.apiKey ? 'the key was accepted' : 'no key needed');
  let modelKnown: boolean | null = null;
  if (models?.success) {
    const ids = models.data.data.map((m) => m.id);
    const entry = models.data.data.find((m) => m.id === model);
    modelKnown = entry !== undefined;
    if (entry) {
      add('model known', 'ok', `${model} is served`);
      const window = contextWindowOf(entry);
      add('context window', 'info', window === null ? 'not reported by the server' : `${window} tokens (reported by the server)`);
    } else {
      const near = ids.length > 0 ? closest(model, ids) : null;
      add('model known', 'fail', `${model} is not in the endpoint's list of ${ids.length} model(s)${near ? `; did you mean ${near}?` : ''}`);
      report.advice.push(origin.modelSetting(near ?? '<a model the endpoint serves>'));
    }
  } else {
    add('model known', 'warn', `the endpoint gives no model list (GET /models: ${list.status}); the chat check below tells`);
    add('context window', 'info', 'not reported by the server');
  }

  // 2. A plain chat call: does the model answer, how fast, with usage?
  const chat = await probe(target, 'POST', '/chat/completions', {
    model,
    messages: [{ role: 'user', content: 'Reply with the single word: ready' }],
    max_tokens: 16,
    temperature: 0,
  });
  const answer = completionOf(chat);
  if (!answer.ok) {
    add('chat', 'fail', `a small chat request failed: ${answer.error}`);
    // A model the list already said is not served has its advice: the 404 of its chat says nothing new.
    if (chat.kind === 'json' && chat.status === 404 && modelKnown === null) report.advice.push(origin.modelSetting('<a model the endpoint serves>'));
    return report;
  }
  add('chat', 'ok', `answered in ${chat.ms} ms`);
  add(
    'usage reported',
    answer.usage ? 'ok' : 'warn',
    answer.usage
      ? 'token counts come from the server'
      : 'the server reports no usage: sopworks counts tokens with its own tokenizer (an estimate for non-OpenAI models)',
  );

  // 3. Structured output, each mode by a real request.
  const schemaMode = await structuredCheck(target, model, 'json_schema');
  add('json_schema', schemaMode.status, schemaMode.detail);
  const objectMode = await structuredCheck(target, model, 'json_object');
  add('json_object', objectMode.status, objectMode.detail);
  const plain = schemaMode.accepted || objectMode.accepted ? null : await structuredCheck(target, model, 'off');
  report.structuredOutput = schemaMode.accepted ? 'json_schema' : objectMode.accepted ? 'json_object' : 'off';
  if (report.structuredOutput !== 'json_schema') {
    report.advice.push(
      `set SOPWORKS_STRUCTURED_OUTPUT=${report.structuredOutput} — the endpoint rejected json_schema${report.structuredOutput === 'off' ? ' and json_object' : ''} (a run would find out and fall back, at the cost of one rejected request)`,
    );
  }

  // 4. JSON compliance in the mode a run would use.
  const used = report.structuredOutput === 'json_schema' ? schemaMode : report.structuredOutput === 'json_object' ? objectMode : plain!;
  add(
    'JSON compliance',
    used.compliant ? 'ok' : 'fail',
    used.compliant
      ? `the reply matched the schema it was given (${report.structuredOutput})`
      : `the reply did not match the schema it was given (${report.structuredOutput}): ${used.parseError}`,
  );
  report.works = modelKnown !== false && used.compliant;
  return report;
}

/** A 401/403 on the model list: a key refused, or none sent where the endpoint asks for one — each its own fix. */
function keyRefused(report: ModelReport, list: Extract<HttpOutcome, { kind: 'json' }>, keySent: boolean, origin: ModelOrigin): ModelReport {
  const said = `${list.status}: ${errorText(list.body)}`;
  if (keySent) report.checks.push({ name: 'key accepted', status: 'fail', detail: `the endpoint refused the key (${said}); check ${origin.keyVariable}` });
  else {
    report.checks.push({ name: 'key accepted', status: 'fail', detail: `no key was sent, and the endpoint asks for one (${said})` });
    report.advice.push(origin.missingKey);
  }
  return report;
}

/** False (with the check added) when the endpoint could not be reached or never answered. */
function reached(
  outcome: HttpOutcome,
  add: (name: string, status: CheckStatus, detail: string) => void,
  target: ProbeTarget,
): outcome is Extract<HttpOutcome, { kind: 'json' | 'not-json' }> {
  if (outcome.kind === 'unreachable') {
    add('reachable', 'fail', `cannot connect to ${target.baseUrl} (${outcome.cause}). ${reachHint(target.baseUrl, outcome.cause)}`);
    return false;
  }
  if (outcome.kind === 'no-answer') {
    add(
      'reachable',
      'fail',
      `${target.baseUrl} accepted the connection but did not answer within ${target.timeoutMs} ms; the server may be busy loading a model (raise SOPWORKS_TIMEOUT_MS) or stuck`,
    );
    return false;
  }
  return true;
}

const missingV1Hint = (baseUrl: string) => `set OPENAI_BASE_URL=${baseUrl.replace(/\/+$/, '')}/v1 — OpenAI-compatible servers serve their API under /v1`;

type Answer = { ok: true; text: string; usage: boolean } | { ok: false; error: string };

function completionOf(outcome: HttpOutcome): Answer {
  if (outcome.kind === 'unreachable') return { ok: false, error: `the connection failed (${outcome.cause})` };
  if (outcome.kind === 'no-answer') return { ok: false, error: `no answer within the timeout (${outcome.ms} ms)` };
  if (outcome.kind === 'not-json') return { ok: false, error: `the server answered with ${describeNotJson(outcome)}` };
  if (outcome.status !== 200) return { ok: false, error: `${outcome.status}: ${errorText(outcome.body)}` };
  const parsed = ChatCompletion.safeParse(outcome.body);
  if (!parsed.success) return { ok: false, error: `the body is not a chat completion (${JSON.stringify(outcome.body).slice(0, 120)})` };
  const message = parsed.data.choices[0]!.message;
  return { ok: true, text: message.content || message.reasoning_content || '', usage: Boolean(parsed.data.usage) };
}

interface StructuredResult {
  status: CheckStatus;
  detail: string;
  accepted: boolean;
  compliant: boolean;
  parseError: string;
}

async function structuredCheck(target: ProbeTarget, model: string, mode: 'json_schema' | 'json_object' | 'off'): Promise<StructuredResult> {
  const schema = strictJsonSchema(Sample);
  const described = `${SAMPLE_PROMPT}\nReply with only the JSON object, matching this JSON Schema:\n${JSON.stringify(schema)}`;
  const format =
    mode === 'json_schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: 'Sample', schema, strict: true } } }
      : mode === 'json_object'
        ? { response_format: { type: 'json_object' } }
        : {};
  const outcome = await probe(target, 'POST', '/chat/completions', {
    model,
    messages: [{ role: 'user', content: described }],
    max_tokens: 200,
    temperature: 0,
    ...format,
  });
  const answer = completionOf(outcome);
  if (!answer.ok) {
    return { status: mode === 'off' ? 'fail' : 'warn', detail: `not supported: ${answer.error}`, accepted: false, compliant: false, parseError: answer.error };
  }
  const parsed = parseJsonReply(answer.text, Sample);
  return {
    status: 'ok',
    detail: mode === 'off' ? 'the schema described in the prompt' : `supported${parsed.ok ? '' : ', but the reply did not match the schema'}`,
    accepted: true,
    compliant: parsed.ok,
    parseError: parsed.ok ? '' : parsed.error.split('\n')[0]!.slice(0, 200),
  };
}
