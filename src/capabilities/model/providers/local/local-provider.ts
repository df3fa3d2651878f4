/**
 * The local provider: a GGUF model run in this process by llama.cpp (node-llama-cpp), no server.
 *
 * - Loads once: the GPU when there is one (CUDA, Vulkan, Metal) and the CPU otherwise, a thread count
 *   and a context size chosen for the machine (machine-fit.ts), the model's own chat template; what it
 *   chose is said once on stderr.
 * - Every structured reply is generated under a grammar made from the step's schema, and every code
 *   reply under a fenced-block grammar (artifact-grammar.ts), so it parses by construction; the
 *   gateway still parses and validates it.
 * - As with a server: usage is counted by the model's own tokenizer, the output limit and its
 *   continuations bound a reply (under a grammar as one generation of their combined length, since a
 *   grammar cannot resume mid-document), and the request's AbortSignal stops the generation in flight.
 * - A context sequence per role, memory permitting (role-sequences.ts), so each role's prompts keep their
 *   evaluated prefix while other roles ask; calls are answered one at a time, in the order they came.
 */
import os from 'node:os';
import type { ChatHistoryItem, Llama, LlamaContext, LlamaGrammar, LlamaModel, Token } from 'node-llama-cpp';
import type { z } from 'zod';
import { SopworksError } from '../../../../ground/errors.ts';
import { describePlan, planContext, plannedSteps, type SopPrompt } from '../../context-plan.ts';
import { checkGgufFile } from '../../local-models/gguf-file.ts';
import { type ChatMessage, type Completion, type CompletionRequest, describeCall, type Provider } from '../../provider.ts';
import { artifactGrammar, CODE_BLOCK_GRAMMAR, FILES_GRAMMAR } from './artifact-grammar.ts';
import { type Engine, loadEngine } from './load-engine.ts';
import type { LocalSettings } from './local-settings.ts';
import { chooseContextSize, chooseThreads, formatBytes, memoryShortfall } from './machine-fit.ts';
import { createRoleContext, planSequences, RoleChats } from './role-sequences.ts';

/** The limits a local model works within. */
export interface LocalLimits {
  replyTokens: number;
  maxContinuations: number;
  maxStringChars: number | null;
  maxItems: number | null;
}

export interface LocalProviderOptions {
  modelFile: string;
  settings: LocalSettings;
  /** The largest reply one generation may produce (SOPWORKS_MAX_OUTPUT_TOKENS). */
  maxOutputTokens: number;
  /** Generations that continue a reply cut off at the output limit (SOPWORKS_MAX_CONTINUATIONS). */
  maxContinuations: number;
  temperature: number | null;
  /** Which of those were set rather than defaulted (settings.ts): the others are planned for the context. */
  explicit?: { maxOutputTokens: boolean; maxContinuations: boolean };
  /** The SOP's prompts (src/company/sop-prompts.ts); none: no plan, the limits as given. */
  prompts?: readonly SopPrompt[];
  /** The roles that will ask, a context sequence each, memory permitting; none: the prompts' roles, else one sequence. */
  roles?: readonly string[];
  /**
   * Whether a call reuses the evaluated prefix it shares with the call before (default); false reads
   * every prompt whole, as without a cache — what bench/prompt-cache.ts compares against.
   */
  reusePrefix?: boolean;
  /** Where what was chosen is said (stderr). */
  report: (line: string) => void;
  /** The engine module; loaded (or the install command named) when absent. */
  engine?: Engine;
}

/** The largest context chosen unasked: longer costs memory and time that SOP prompts rarely need. */
const CONTEXT_CEILING = 16_384;

export class LocalProvider implements Provider {
  readonly label: string;
  private tail: Promise<unknown> = Promise.resolve();
  /** A schema's grammar, made once; null when the builder could not take the schema. */
  private readonly grammars = new WeakMap<z.ZodType, LlamaGrammar | null>();
  private blockGrammars: { code?: LlamaGrammar; files?: LlamaGrammar } = {};
  /** The limits in force: planned for the context (context-plan.ts), or as set. */
  readonly limits: LocalLimits;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly chats: RoleChats,
    private readonly options: LocalProviderOptions,
  ) {
    this.label = `local:${options.modelFile}`;
    this.limits = {
      replyTokens: options.maxOutputTokens,
      maxContinuations: options.maxContinuations,
      maxStringChars: options.settings.maxStringChars,
      maxItems: options.settings.maxItems,
    };
  }

  static async open(options: LocalProviderOptions): Promise<LocalProvider> {
    const { modelFile, settings } = options;
    const { bytes } = await checkGgufFile(modelFile);
    const engine = options.engine ?? (await loadEngine());
    // llama.cpp's own error lines are kept for our message instead of printed beside it.
    const engineLog: string[] = [];
    const llama = await engine
      .getLlama({
        gpu: settings.gpu === 'off' ? false : 'auto',
        build: 'never',
        progressLogs: false,
        logLevel: engine.LlamaLogLevel.error,
        logger: (_level, message) => void engineLog.push(message.trim()),
      })
      .catch((error: unknown) => {
        throw new SopworksError('NO_MODEL', `llama.cpp could not start on this machine (${process.platform}-${process.arch}): ${firstLine(error)}`, {
          hint: 'Install the engine again with its prebuilt binaries for this machine: sopworks models setup --force',
          cause: error,
        });
      });
    try {
      const info = await readInfo(engine, modelFile);
      const insights = await engine.GgufInsights.from(info, llama);
      const onGpu = llama.gpu !== false;
      const contextSize = settings.contextSize ?? chooseContextSize(insights.trainContextSize, CONTEXT_CEILING);
      // On the CPU the memory is known: the model with one sequence must fit, a sequence per role may.
      const needed = (sequences: number) =>
        insights.estimateModelResourceRequirements({ gpuLayers: 0 }).cpuRam +
        insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences }).cpuRam;
      const roles = options.roles ?? [...new Set((options.prompts ?? []).map((p) => p.name.split('/')[0]!))];
      const plan = onGpu ? { count: Math.max(1, roles.length), notice: null } : planSequences(roles.length, needed, os.freemem());
      const short = onGpu ? null : memoryShortfall(needed(1), os.freemem(), 'RAM');
      if (short) {
        throw new SopworksError('NO_MODEL', `${modelFile} does not fit in memory: ${short}.`, {
          hint: 'Choose a smaller model or quantization (sopworks models list), free memory, or lower SOPWORKS_LOCAL_CONTEXT.',
        });
      }
      const threads = settings.threads ?? chooseThreads();
      const model = await loadModel(llama, modelFile, onGpu, engineLog);
      const { context, notice } = await createRoleContext(
        model,
        { contextSize: settings.contextSize ?? { min: Math.min(512, contextSize), max: contextSize }, threads },
        plan,
      ).catch((error: unknown) => {
        throw new SopworksError('NO_MODEL', `No context of ${contextSize} tokens fits in memory for ${modelFile}: ${firstLine(error)}`, {
          hint: 'Lower SOPWORKS_LOCAL_CONTEXT, or choose a smaller model.',
          cause: error,
        });
      });
      const chats = new RoleChats(engine, context);
      options.report(
        `local model: ${modelFile} (${formatBytes(bytes)}, ${info.metadata?.general?.architecture ?? 'unknown architecture'}, chat template ${chats.first.chatWrapper.wrapperName}) ` +
          `on ${onGpu ? `the GPU (${llama.gpu})` : 'the CPU'}, ${threads} thread${threads === 1 ? '' : 's'}, context ${context.contextSize} tokens` +
          `${insights.trainContextSize ? ` (trained on ${insights.trainContextSize})` : ''}${chats.count > 1 ? `, a sequence per role (${chats.count})` : ''}`,
      );
      if (notice) options.report(`notice: ${notice}`);
      const provider = new LocalProvider(llama, model, context, chats, options);
      provider.plan(options.prompts ?? []);
      return provider;
    } catch (error) {
      await llama.dispose();
      throw error;
    }
  }

  /** The GGUF file loaded (kept in run.json, so `resume` reopens it). */
  get modelFile(): string {
    return this.options.modelFile;
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  get contextWindow(): number {
    return this.context.contextSize;
  }

  /** One generation's tokens: the output limit and, under a grammar, its continuations with it. */
  get replyAllowance(): number {
    return this.limits.replyTokens * (1 + this.limits.maxContinuations);
  }

  countPromptTokens(messages: readonly ChatMessage[]): number {
    return this.countPrompt(toHistory(messages));
  }

  countTextTokens(text: string): number {
    return this.model.tokenize(text).length;
  }

  /**
   * Plans the limits a setting does not fix for this context and the SOP's prompts (context-plan.ts), or
   * refuses a model whose context cannot hold the SOP; says what it chose.
   */
  private plan(prompts: readonly SopPrompt[]): void {
    if (prompts.length === 0) return;
    const { explicit = { maxOutputTokens: false, maxContinuations: false }, settings } = this.options;
    const plan = planContext(
      this.contextSize,
      plannedSteps(prompts, (messages) => this.countPromptTokens(messages)),
      // A reply under a grammar is one generation: none is continued, files neither.
      { replyTokens: this.options.maxOutputTokens, filesContinuations: 0 },
    );
    Object.assign(this.limits, {
      replyTokens: explicit.maxOutputTokens ? this.options.maxOutputTokens : plan.replyTokens,
      maxContinuations: explicit.maxContinuations ? this.options.maxContinuations : plan.maxContinuations,
      maxStringChars: settings.maxStringChars ?? plan.maxStringChars,
      maxItems: settings.maxItems ?? plan.maxItems,
    });
    this.options.report(describePlan(plan));
  }

  complete(request: CompletionRequest): Promise<Completion> {
    const turn = this.tail.then(() => this.generate(request));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.llama.dispose();
  }

  private async generate(request: CompletionRequest): Promise<Completion> {
    request.signal?.throwIfAborted();
    const history = toHistory(request.messages);
    const grammar = await this.grammarFor(request);
    const { replyTokens: maxOutputTokens, maxContinuations } = this.limits;
    const minReply = Math.min(maxOutputTokens, 256);
    const promptTokens = this.countPrompt(history);
    if (promptTokens + minReply > this.contextSize) throw this.contextTooSmall(request, promptTokens, minReply);
    if (grammar) {
      // Under a grammar the reply is generated in one go, as long as a server's reply and its continuations
      // could be together: a continuation would have to start the grammar over, mid-document.
      const room = this.contextSize - promptTokens - 1;
      const once = await this.generateOnce(request, history, grammar, Math.min(maxOutputTokens * (1 + maxContinuations), room));
      const continuations = Math.max(0, Math.ceil(once.tokens / maxOutputTokens) - 1);
      const usage = { promptTokens, completionTokens: once.tokens, cachedPromptTokens: Math.max(0, promptTokens - once.evaluated) };
      return { text: once.text, usage, finishReason: once.cutOff ? 'length' : 'stop', continuations };
    }
    // Without a grammar, as with a server: a reply cut off at the output limit is continued (the model
    // sees what it wrote as its own unfinished turn), at most maxContinuations times.
    let text = '';
    let usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
    let continuations = 0;
    for (;;) {
      const asked: ChatHistoryItem[] = continuations === 0 ? history : [...history, { type: 'model', response: [text] }];
      const asking = this.countPrompt(asked);
      const room = this.contextSize - asking - 1;
      if (room < 1) return { text, usage, finishReason: 'length', continuations };
      const once = await this.generateOnce(request, asked, undefined, Math.min(maxOutputTokens, room), usage.completionTokens);
      text += once.text;
      usage = {
        promptTokens: usage.promptTokens + asking,
        completionTokens: usage.completionTokens + once.tokens,
        cachedPromptTokens: usage.cachedPromptTokens + Math.max(0, asking - once.evaluated),
      };
      if (!once.cutOff || continuations >= maxContinuations) return { text, usage, finishReason: once.cutOff ? 'length' : 'stop', continuations };
      continuations++;
    }
  }

  /**
   * One generation; `tokens` is the engine's own count of what it generated (re-tokenizing the text could
   * differ), `evaluated` the prompt tokens it read — the rest it took from the sequence's state, which
   * the call before left (the prefix the two share: prompt-cache.ts). Progress is told as it goes, the
   * reply's tokens counted from `written` (a continuation's earlier part).
   */
  private async generateOnce(
    request: CompletionRequest,
    asked: ChatHistoryItem[],
    grammar: LlamaGrammar | undefined,
    maxTokens: number,
    written = 0,
  ): Promise<{ text: string; tokens: number; cutOff: boolean; evaluated: number }> {
    const { signal, onProgress } = request;
    const chat = this.chats.of(request.call.role);
    const sequence = chat.sequence;
    if (this.options.reusePrefix === false) await sequence.clearHistory();
    const before = sequence.tokenMeter.getState();
    const prompt = this.promptTokensOf(asked);
    onProgress?.({ phase: 'reading', tokens: written, promptTokens: prompt.length - sequence.compareContextTokens(prompt).firstDifferentIndex });
    let tokens = 0;
    const response = await chat
      .generateResponse(asked, {
        grammar,
        maxTokens: Math.max(1, maxTokens),
        temperature: this.options.temperature ?? undefined,
        ...(this.options.settings.seed != null ? { seed: this.options.settings.seed } : {}),
        signal,
        onToken: (generated) => {
          if (generated.length === 0) return;
          tokens += generated.length;
          onProgress?.({ phase: 'writing', tokens: written + tokens });
        },
      })
      .catch((error: unknown) => {
        if (signal?.aborted) throw signal.reason ?? error;
        throw new SopworksError('MODEL_ERROR', `The local model failed during ${describeCall(request.call)}: ${firstLine(error)}`, { cause: error });
      });
    const evaluated = sequence.tokenMeter.diff(before).usedInputTokens;
    return { text: response.response, tokens, cutOff: response.metadata.stopReason === 'maxTokens', evaluated };
  }

  /** The prompt's length in the model's own tokens, as its chat template lays it out. */
  private countPrompt(history: ChatHistoryItem[]): number {
    return this.promptTokensOf(history).length;
  }

  private promptTokensOf(history: ChatHistoryItem[]): Token[] {
    return this.chats.first.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(this.model.tokenizer);
  }

  private async grammarFor(request: CompletionRequest): Promise<LlamaGrammar | undefined> {
    const output = request.output;
    if (!output) return undefined;
    if (output.kind === 'code') return (this.blockGrammars.code ??= await this.llama.createGrammar({ grammar: CODE_BLOCK_GRAMMAR }));
    if (output.kind === 'files') return (this.blockGrammars.files ??= await this.llama.createGrammar({ grammar: FILES_GRAMMAR }));
    // Search/replace edits (a change run) have a shape of their own, which the parser checks: no grammar.
    if (output.kind === 'edits') return undefined;
    if (this.grammars.has(output.schema)) return this.grammars.get(output.schema) ?? undefined;
    const { maxStringChars, maxItems } = this.limits;
    let grammar: LlamaGrammar | null = null;
    try {
      grammar = await this.llama.createGrammar({ grammar: artifactGrammar(output.schema, { maxStringChars, maxItems }) });
    } catch (error) {
      // A schema the grammar builder cannot take is not a reason to stop: the parser and validation still judge the reply.
      this.options.report(
        `notice: the schema of ${describeCall(request.call)} cannot be made a grammar (${firstLine(error)}); its replies are generated without one, and parsed and validated as usual.`,
      );
    }
    this.grammars.set(output.schema, grammar);
    return grammar ?? undefined;
  }

  private contextTooSmall(request: CompletionRequest, promptTokens: number, minReply: number): SopworksError {
    const over = promptTokens + minReply - this.contextSize;
    return new SopworksError(
      'MODEL_ERROR',
      `The prompt for ${describeCall(request.call)} is ${promptTokens} tokens; with ${minReply} for the reply it exceeds the local model's context of ${this.contextSize} tokens by ${over}.`,
      { hint: `Set SOPWORKS_LOCAL_CONTEXT to at least ${promptTokens + minReply} (memory allowing), then \`sopworks resume <project folder>\`.` },
    );
  }
}

const toHistory = (messages: readonly ChatMessage[]): ChatHistoryItem[] =>
  messages.map((m) =>
    m.role === 'system'
      ? { type: 'system', text: m.content }
      : m.role === 'user'
        ? { type: 'user', text: m.content }
        : { type: 'model', response: [m.content] },
  );

const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0]!;

/** The engine's reading of the file's header and metadata: a truncated or corrupt file fails here. */
async function readInfo(engine: Engine, modelFile: string) {
  try {
    return await engine.readGgufFileInfo(modelFile, { readTensorInfo: true, logWarnings: false });
  } catch (error) {
    throw new SopworksError('NO_MODEL', `${modelFile} is not a readable GGUF model (${firstLine(error)}); the file may be truncated or corrupt.`, {
      hint: 'Download it again (sopworks models rm <name>, then sopworks models pull <name>).',
      cause: error,
    });
  }
}

async function loadModel(llama: Llama, modelFile: string, onGpu: boolean, engineLog: readonly string[]): Promise<LlamaModel> {
  try {
    return await llama.loadModel({ modelPath: modelFile, gpuLayers: onGpu ? 'auto' : 0 });
  } catch (error) {
    const memory = (error as Error)?.name === 'InsufficientMemoryError' || /memory/i.test(firstLine(error));
    const detail = engineLog.length > 0 ? ` (llama.cpp: ${engineLog[0]!.replace(/^\w+: /, '')})` : '';
    throw new SopworksError('NO_MODEL', `${modelFile} could not be loaded: ${firstLine(error)}${detail}`, {
      hint: memory
        ? 'Choose a smaller model or quantization (sopworks models list), or free memory.'
        : 'The file may be truncated or corrupt: download it again.',
      cause: error,
    });
  }
}
