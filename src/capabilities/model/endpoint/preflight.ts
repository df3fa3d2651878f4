/**
 * The start-up check of an OpenAI-compatible endpoint, before anything is written: its model list (a
 * wrong key fails here), then one small real chat request — the model list alone passes a server that
 * cannot chat, a proxy's login page, or a base URL missing its `/v1`. Each failure says what came back
 * and what to set. A server that accepted the connection but did not answer is said to be slow (a
 * model loading, say), not unreachable.
 */
import { SopworksError } from '../../../ground/errors.ts';
import { contextWindowIn } from './context-window.ts';
import { describeNonCompletion, lacksV1, sayNotACompletion } from './not-a-completion.ts';
import { reachHint } from './reach-hint.ts';

export interface PreflightTarget {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** How long the chat request may take (SOPWORKS_TIMEOUT_MS): a local model may be loading. */
  timeoutMs: number;
}

/** Sent with the start-up check's chat request, so that a log (or a test's server) can tell it from a step's. */
export const PREFLIGHT_HEADER = 'x-sopworks-check';

const NOTHING = 'Nothing was written.';

/** What the check learnt: the model's context window, when the server's model list says it. */
export interface PreflightResult {
  contextWindow: number | null;
}

export async function preflight(target: PreflightTarget): Promise<PreflightResult> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {};
  const models = await request(target, `${base}/models`, { headers }, 10_000);
  if (models.status === 401 || models.status === 403) throw rejectedKey(target, models.status);
  const learnt: PreflightResult = { contextWindow: models.status === 200 ? contextWindowIn(models.body, target.model) : null };

  const chat = await request(
    target,
    `${base}/chat/completions`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', [PREFLIGHT_HEADER]: 'start-up' },
      body: JSON.stringify({ model: target.model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], max_tokens: 1 }),
    },
    target.timeoutMs,
  );
  if (chat.status === 401 || chat.status === 403) throw rejectedKey(target, chat.status);
  if (chat.status === 200) {
    const found = describeNonCompletion(chat.body, chat.contentType);
    if (found)
      throw new SopworksError('MODEL_UNREACHABLE', `${sayNotACompletion(target.baseUrl, found)} ${NOTHING}`, {
        hint: v1Hint(target) ?? 'Check OPENAI_BASE_URL and any proxy in between.',
      });
    return learnt;
  }
  const said = errorText(chat.body);
  if (chat.status === 404) {
    const hint = v1Hint(target);
    if (hint)
      throw new SopworksError(
        'MODEL_UNREACHABLE',
        `The model endpoint ${target.baseUrl} has no chat API at that address (404${said ? `: ${said}` : ''}). ${NOTHING}`,
        { hint },
      );
    throw new SopworksError(
      'MODEL_UNREACHABLE',
      `The model endpoint ${target.baseUrl} does not know model "${target.model}" (404${said ? `: ${said}` : ''}). ${NOTHING}`,
      {
        hint: 'Set SOPWORKS_MODEL or --model to a model the endpoint serves (its model list: GET <base URL>/models).',
      },
    );
  }
  if (chat.status >= 500) {
    throw new SopworksError(
      'MODEL_UNREACHABLE',
      `The model endpoint ${target.baseUrl} failed a small chat request (${chat.status}${said ? `: ${said}` : ''}). ${NOTHING}`,
      {
        hint: "See the server's log; a local server may not have loaded the model (or it does not fit in memory).",
      },
    );
  }
  // Other answers (a 400 for a parameter this model does not take, say) come from a chat API that is
  // there and answering: the run's own requests will say more if they fail.
  return learnt;
}

async function request(
  target: PreflightTarget,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ status: number; body: string; contentType: string | null }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type') };
  } catch (error) {
    const name = (error as Error).name;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new SopworksError(
        'MODEL_UNREACHABLE',
        `The model endpoint ${target.baseUrl} accepted the connection but did not answer ${url.endsWith('/models') ? 'its model list' : 'a small chat request'} within ${Math.round(timeoutMs / 1000)} s. ${NOTHING}`,
        { hint: 'The server is there but slow or stuck: a local model may still be loading (wait, or raise SOPWORKS_TIMEOUT_MS), or see its log.' },
      );
    }
    const message = (error as Error).message ?? '';
    const proxied = /proxy|tunnel/i.test(`${message} ${(error as { cause?: { message?: string } }).cause?.message ?? ''}`);
    if (cause && !proxied && !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(cause)) {
      throw new SopworksError(
        'MODEL_UNREACHABLE',
        `The model endpoint ${target.baseUrl} accepted the connection but closed it without an answer (${cause}). ${NOTHING}`,
        {
          hint: "Check that OPENAI_BASE_URL is the API (http or https as the server serves it), and see the server's log.",
        },
      );
    }
    const why = proxied ? ((error as { cause?: { message?: string } }).cause?.message ?? message) : (cause ?? name);
    throw new SopworksError('MODEL_UNREACHABLE', `Cannot reach the model endpoint ${target.baseUrl} (${why}). ${NOTHING}`, {
      hint: reachHint(target.baseUrl, why),
    });
  }
}

const rejectedKey = (target: PreflightTarget, status: number): SopworksError =>
  new SopworksError('MODEL_AUTH', `The model endpoint ${target.baseUrl} rejected the API key (${status}). ${NOTHING}`, {
    hint: 'Check OPENAI_API_KEY in the environment or .env.',
  });

const v1Hint = (target: PreflightTarget): string | null =>
  lacksV1(target.baseUrl) ? `OpenAI-compatible servers serve their API under /v1: set OPENAI_BASE_URL=${target.baseUrl.replace(/\/+$/, '')}/v1` : null;

/** The server's own error text: its JSON error message, or the title or text of what it sent, shortened. */
function errorText(body: string): string | null {
  let text = body;
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = json?.error;
    const message = typeof error === 'string' ? error : ((error as { message?: unknown })?.message ?? json?.message ?? json?.detail);
    text = typeof message === 'string' ? message : body;
  } catch {
    text = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1] ?? body.replace(/<[^>]+>/g, ' ');
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line === '' ? null : line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
