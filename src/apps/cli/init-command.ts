/**
 * `sopworks init`: asks for the endpoint, the model and the variable that holds the key, probes them with
 * doctor's own checks (capabilities/model/doctor/check-model.ts), and writes the user's config
 * (user-config.ts). The key itself is never asked for: an answer that looks like a key is written only
 * if the person insists, in a file only they may read. Questions come from standard input, so a script
 * can answer them; each flag given skips its question.
 */
import readline from 'node:readline/promises';
import { z } from 'zod';
import { checkModel, type ModelOrigin } from '../../capabilities/model/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { parseRequest } from '../../session/index.ts';
import { renderDoctor } from './doctor-command.ts';
import { EXIT, type Output } from './output.ts';
import { readUserConfig, type UserConfig, userConfigFile, writeUserConfig } from './user-config.ts';

const InitOptions = z.object({
  baseUrl: z.string().trim().min(1).optional(),
  model: z.string().trim().min(1).optional(),
  apiKeyEnv: z.string().trim().min(1).optional(),
  check: z.boolean().default(true),
  force: z.boolean().default(false),
});

const OPENAI = 'https://api.openai.com/v1';

/** The endpoints offered by number, with the model to suggest and whether they need a key. */
const ENDPOINTS = [
  { name: 'OpenAI', url: OPENAI, model: 'gpt-4o-mini', key: 'OPENAI_API_KEY' },
  { name: 'Ollama', url: 'http://localhost:11434/v1', model: 'qwen2.5-coder:14b', key: null },
  { name: 'vLLM', url: 'http://localhost:8000/v1', model: null, key: null },
  { name: 'LM Studio', url: 'http://localhost:1234/v1', model: null, key: null },
  { name: "llama.cpp's llama-server", url: 'http://localhost:8080/v1', model: null, key: null },
] as const;

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Asks one question at a time from standard input; an ended input answers the default. */
function asker(io: Output): { ask: (question: string, fallback?: string) => Promise<string>; close: () => void } {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  const queue: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  lines.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : queue.push(line)));
  lines.on('close', () => {
    ended = true;
    for (const wake of waiting.splice(0)) wake(null);
  });
  const next = () =>
    queue.length > 0 ? Promise.resolve<string | null>(queue.shift()!) : ended ? Promise.resolve(null) : new Promise<string | null>((r) => waiting.push(r));
  return {
    ask: async (question, fallback = '') => {
      io.err(`${question}${fallback ? ` [${fallback}]` : ''}: `);
      const answer = (await next())?.trim() ?? '';
      return answer === '' ? fallback : answer;
    },
    close: () => lines.close(),
  };
}

export async function initCommand(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(InitOptions, rawOptions, 'init');
  const file = userConfigFile();
  const { ask, close } = asker(io);
  try {
    const existing = safeRead(file);
    if (existing !== undefined && !options.force) {
      const replace = await ask(`${file} ${existing === null ? 'exists and is not valid' : 'exists'}. Replace it? (y/N)`, 'n');
      if (!/^y(es)?$/i.test(replace)) {
        io.out(`Kept ${file}.`);
        return EXIT.done;
      }
    }
    const baseUrl = await endpoint(options.baseUrl, ask, io);
    const known = ENDPOINTS.find((e) => e.url === baseUrl);
    const model = options.model ?? (await ask('Model, as the endpoint names it', known?.model ?? ''));
    if (!model) throw new SopworksError('USAGE', 'No model was given.', { hint: 'Name the model the endpoint serves, e.g. --model qwen2.5-coder:14b' });
    const keyAnswer = options.apiKeyEnv ?? (await ask('The environment variable that holds the API key ("none" for none)', known?.key ?? 'none'));
    const config: UserConfig = { model: { ...(baseUrl === OPENAI ? {} : { base_url: baseUrl }), name: model }, env: existing?.env ?? {} };
    if (!/^none$/i.test(keyAnswer)) {
      if (VARIABLE.test(keyAnswer) && !/^sk-/i.test(keyAnswer)) config.model.api_key_env = keyAnswer;
      else if (await insistsOnKey(ask, io)) config.model.api_key = keyAnswer;
      else io.err('The key was not kept. Put it in a variable (export OPENAI_API_KEY=…) and run `sopworks init` again to name it.');
    }
    let works = true;
    if (options.check) {
      const apiKey = config.model.api_key ?? (config.model.api_key_env ? (process.env[config.model.api_key_env] ?? null) : null);
      const report = await checkModel({ baseUrl, apiKey, timeoutMs: 30_000 }, model, ['all roles'], initOrigin(config));
      for (const line of renderDoctor([report], [], report.works)) io.err(line);
      works = report.works;
      if (!works && !/^y(es)?$/i.test(await ask('The check failed. Write the config anyway? (y/N)', 'n'))) {
        io.out(`Nothing was written to ${file}.`);
        return EXIT.failed;
      }
    }
    writeUserConfig(file, config);
    io.out(`Wrote ${file}${config.model.api_key ? ' (it holds your key: readable by you only)' : ''}.`);
    io.out(works ? 'Next: sopworks run "<what to build>" — from any folder.' : 'Next: fix what the check found, then `sopworks doctor`.');
    return works ? EXIT.done : EXIT.failed;
  } finally {
    close();
  }
}

/** What init's own flags change: its advice is run again with them, not a setting elsewhere. */
function initOrigin(config: UserConfig): ModelOrigin {
  const variable = config.model.api_key_env;
  return {
    modelSetting: (name) => `run sopworks init --force --model ${name}`,
    keyVariable: variable ?? (config.model.api_key ? 'the key you gave' : 'OPENAI_API_KEY'),
    missingKey: variable
      ? `set ${variable}=<your key> — it is not set here (export ${variable}=…), then run sopworks doctor`
      : 'run sopworks init --force --api-key-env <NAME> — the endpoint needs a key: name the variable that holds it',
  };
}

async function endpoint(given: string | undefined, ask: (q: string, d?: string) => Promise<string>, io: Output): Promise<string> {
  let answer = given;
  if (answer === undefined) {
    io.err('Which endpoint?');
    ENDPOINTS.forEach((e, i) => io.err(`  ${i + 1}) ${e.name}  ${e.url}`));
    io.err(`  or the base URL of any OpenAI-compatible server`);
    answer = await ask('Endpoint', '1');
  }
  const chosen = /^\d+$/.test(answer) ? ENDPOINTS[Number(answer) - 1]?.url : /^openai$/i.test(answer) ? OPENAI : answer;
  if (!chosen || !/^https?:\/\/[^/\s]+/.test(chosen)) {
    throw new SopworksError('USAGE', `"${answer}" is not an endpoint.`, {
      hint: `Answer 1 to ${ENDPOINTS.length}, or a base URL such as http://localhost:11434/v1`,
    });
  }
  return chosen.replace(/\/+$/, '');
}

async function insistsOnKey(ask: (q: string, d?: string) => Promise<string>, io: Output): Promise<boolean> {
  io.err('That looks like a key itself, not the name of a variable that holds it. A key written in the config is stored in plain text.');
  return /^yes$/i.test(await ask('Store the key itself in the config? Type "yes" to insist', 'no'));
}

function safeRead(file: string): UserConfig | null | undefined {
  try {
    return readUserConfig(file) ?? undefined;
  } catch {
    // A damaged config exists: replacing it is what init is for.
    return null;
  }
}
