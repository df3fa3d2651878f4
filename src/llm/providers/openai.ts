/**
 * The OpenAI provider: LangChain's ChatOpenAI (built through `initChatModel`), pointed at OpenAI or any
 * OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp's server) by its base URL.
 * Transport retries with backoff (429/5xx/timeouts) are LangChain's; what reaches us is mapped to
 * errors that say what to fix.
 */
import { initChatModel } from 'langchain';
import type { BaseMessageLike } from '@langchain/core/messages';
import type { ChatOpenAICallOptions } from '@langchain/openai';
import { SopworksError } from '../../errors.ts';
import type { ModelSettings } from '../../config/settings.ts';
import { describeCall, type Completion, type CompletionRequest, type Provider } from '../provider.ts';

type ChatModel = Awaited<ReturnType<typeof initChatModel>>;

export class OpenAIProvider implements Provider {
  readonly label: string;

  private constructor(
    private readonly model: ChatModel,
    private readonly settings: ModelSettings,
  ) {
    this.label = `openai:${settings.model}${settings.baseUrl ? ` at ${settings.baseUrl}` : ''}`;
  }

  static async create(settings: ModelSettings): Promise<OpenAIProvider> {
    const model = await initChatModel(settings.model, {
      modelProvider: 'openai',
      // Local servers take any key; the client insists on one.
      apiKey: settings.apiKey ?? 'not-needed-for-local-servers',
      configuration: settings.baseUrl ? { baseURL: settings.baseUrl } : undefined,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      temperature: settings.temperature ?? undefined,
    });
    return new OpenAIProvider(model, settings);
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const messages: BaseMessageLike[] = request.messages.map((m) => ({ role: m.role, content: m.content }));
    const options: Partial<ChatOpenAICallOptions> = { signal: request.signal };
    if (request.jsonSchema && this.settings.structuredOutput === 'json_schema') {
      options.response_format = {
        type: 'json_schema',
        json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
      };
    } else if (request.jsonSchema && this.settings.structuredOutput === 'json_object') {
      options.response_format = { type: 'json_object' };
    }
    let reply;
    try {
      reply = await this.model.invoke(messages, options as never);
    } catch (error) {
      throw this.explain(error, request);
    }
    const usage = reply.usage_metadata;
    return {
      text: typeof reply.content === 'string' ? reply.content : reply.content.map((part) => ('text' in part ? part.text : '')).join(''),
      // LangChain leaves the counts undefined (or 0) when the server sent no usage; then we count ourselves.
      usage: usage?.input_tokens && usage.output_tokens !== undefined ? { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens } : null,
      finishReason: (reply.response_metadata?.finish_reason as string | undefined) ?? null,
    };
  }

  private explain(error: unknown, request: CompletionRequest): Error {
    if ((error as Error)?.name === 'AbortError') return error as Error;
    const status = (error as { status?: number }).status;
    const message = (error as Error)?.message ?? String(error);
    const where = this.settings.baseUrl ?? 'https://api.openai.com/v1';
    const call = describeCall(request.call);
    if (status === 401 || status === 403) {
      return new SopworksError('MODEL_AUTH', `The model endpoint ${where} rejected the API key (${status}) during ${call}.`, {
        hint: 'Check OPENAI_API_KEY (in the environment or .env).',
        cause: error,
      });
    }
    if (status === 404) {
      return new SopworksError('MODEL_ERROR', `The model endpoint ${where} does not know model "${this.settings.model}" (404) during ${call}.`, {
        hint: 'Set SOPWORKS_MODEL or --model to a model the endpoint serves.',
        cause: error,
      });
    }
    if (status === undefined && /connection|ECONNREFUSED|ENOTFOUND|fetch failed|socket|timed out|timeout/i.test(`${message} ${(error as Error)?.name}`)) {
      return new SopworksError('MODEL_UNREACHABLE', `Cannot reach the model endpoint ${where} during ${call}: ${message}`, {
        hint: 'Check OPENAI_BASE_URL and that the server is running; the run can be started again once it is.',
        cause: error,
      });
    }
    return new SopworksError('MODEL_ERROR', `The model endpoint ${where} failed during ${call}${status ? ` (${status})` : ''}: ${message}`, {
      cause: error,
    });
  }
}
