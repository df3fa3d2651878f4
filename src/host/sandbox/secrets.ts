/**
 * The sandbox never hands secrets to generated code, but code can still find one (a .env file the
 * fallback lets it read, say). Its output goes on the board and into prompts, so the value of every
 * secret-looking variable of sopworks' own environment is cut out of it, and the leak is reported.
 */
export interface Secret {
  name: string;
  value: string;
}

const SECRET_NAME = /(^OPENAI_|KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH)/i;
/** Shorter values are too likely to occur by chance (and too weak to be real keys). */
const MIN_LENGTH = 8;

export function secretsOf(env: NodeJS.ProcessEnv): Secret[] {
  return Object.entries(env)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && SECRET_NAME.test(entry[0]) && entry[1].trim().length >= MIN_LENGTH)
    .map(([name, value]) => ({ name, value: value.trim() }));
}

/** Returns the output with every secret replaced by `[redacted NAME]`, and the names that leaked. */
export function redactSecrets(output: string, secrets: readonly Secret[]): { output: string; leaked: string[] } {
  let redacted = output;
  const leaked: string[] = [];
  // Longest first, so a secret that contains another is cut whole.
  for (const secret of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    if (!redacted.includes(secret.value)) continue;
    redacted = redacted.split(secret.value).join(`[redacted ${secret.name}]`);
    leaked.push(secret.name);
  }
  return { output: redacted, leaked };
}
