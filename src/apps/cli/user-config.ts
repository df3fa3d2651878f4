/**
 * The user's own settings, kept where people keep them: $XDG_CONFIG_HOME/sopworks/config.toml (default
 * ~/.config/sopworks/config.toml), written by `sopworks init`. They sit below a project's `.env` and the
 * environment: each fills only a setting those leave unset (or blank, as in a copied .env.example). The
 * key is named by the variable that holds it (`api_key_env`); the key itself is kept only when the person
 * insists, in a file only they may read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'smol-toml';
import { z } from 'zod';
import { SopworksError } from '../../ground/errors.ts';
import { cleanBlock } from '../../ground/terminal-text.ts';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const UserConfig = z
  .object({
    model: z
      .object({
        /** OPENAI_BASE_URL; absent: OpenAI. */
        base_url: z
          .string()
          .regex(/^https?:\/\/[^/\s]+/, 'must be an http(s) URL such as http://localhost:11434/v1')
          .optional(),
        /** SOPWORKS_MODEL. */
        name: z.string().trim().min(1).optional(),
        /** The environment variable that holds the API key. */
        api_key_env: z.string().regex(VARIABLE, 'must be the name of an environment variable, e.g. OPENAI_API_KEY').optional(),
        /** The key itself: only when the person insisted. */
        api_key: z.string().trim().min(1).optional(),
      })
      .strict()
      .default({}),
    /** Any other setting of .env.example, by its variable name. */
    env: z
      .record(
        z.string().regex(/^(SOPWORKS|OPENAI|OTEL|HTTPS?|NO)_[A-Z0-9_]*$/i, 'must be a setting of .env.example, e.g. SOPWORKS_TIMEOUT_MS'),
        z.union([z.string(), z.number(), z.boolean()]),
      )
      .default({}),
  })
  .strict();
export type UserConfig = z.infer<typeof UserConfig>;

export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), '.config');
  return path.join(base, 'sopworks', 'config.toml');
}

/** The user's config, or null when there is none; a file that is not valid is an error naming it. */
export function readUserConfig(file: string): UserConfig | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SopworksError('CONFIG_INVALID', `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`, {
      hint: 'Make it readable, or remove it and run `sopworks init`.',
    });
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new SopworksError('CONFIG_INVALID', tomlFault(file, error), {
      hint: 'Fix that line, or run `sopworks init --force` to write the file afresh.',
    });
  }
  const parsed = UserConfig.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`).join('\n');
    throw new SopworksError('CONFIG_INVALID', `Invalid settings in ${file}:\n${issues}`, {
      hint: 'Its keys: [model] base_url, name, api_key_env (api_key), and [env] with settings of .env.example. `sopworks init --force` writes it afresh.',
    });
  }
  return parsed.data;
}

/** Where a TOML file goes wrong (line and column), with the lines around it that smol-toml quotes. */
function tomlFault(file: string, error: unknown): string {
  const { message = String(error), line, column, codeblock } = error as { message?: string; line?: number; column?: number; codeblock?: string };
  const what = message.split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
  if (typeof line !== 'number' || typeof column !== 'number') return `${file} is not valid TOML: ${what}`;
  const quoted = cleanBlock(codeblock ?? '')
    .replace(/\s+$/, '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `    ${l}`);
  return [`${file} is not valid TOML at line ${line}, column ${column}: ${what}`, ...quoted].join('\n');
}

/** The config as environment variables, as a .env would set them. */
export function configVariables(config: UserConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.env)) vars[name] = String(value);
  const m = config.model;
  if (m.base_url) vars.OPENAI_BASE_URL = m.base_url;
  if (m.name) vars.SOPWORKS_MODEL = m.name;
  const named = m.api_key_env ? env[m.api_key_env]?.trim() : undefined;
  if (m.api_key) vars.OPENAI_API_KEY = m.api_key;
  else if (named) vars.OPENAI_API_KEY = named;
  return vars;
}

/** Fills the settings the environment (and .env, loaded before) leave unset or blank; returns what it set. */
export function applyUserConfig(env: NodeJS.ProcessEnv = process.env, file = userConfigFile(env)): string[] {
  const config = readUserConfig(file);
  if (!config) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(configVariables(config, env))) {
    if ((env[name] ?? '').trim() !== '') continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

/** The file's text: the settings with a header that says where they stand. */
export function renderUserConfig(config: UserConfig): string {
  const header = [
    '# sopworks user settings, written by `sopworks init` (edit freely; `sopworks init --force` asks afresh).',
    "# A project's .env and the environment win over these. [env] takes any setting of .env.example.",
    '',
  ].join('\n');
  const body: Record<string, unknown> = { model: config.model };
  if (Object.keys(config.env).length > 0) body.env = config.env;
  return `${header}${stringify(body)}\n`;
}

/** Writes the config; a file holding a key is readable by its owner only. */
export function writeUserConfig(file: string, config: UserConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mode = config.model.api_key ? 0o600 : 0o644;
  fs.writeFileSync(file, renderUserConfig(config), { mode });
  fs.chmodSync(file, mode);
}
