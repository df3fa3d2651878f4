/**
 * A run flag, declared once: the zod schema of a request's field carries what a command line shows of it
 * (its value's placeholder, a line of help, the default). The CLI makes its options and their help from
 * a request's fields (`flagsOf`); eval and the queue give the same fields as values. A field without help
 * (the spec, the repository) is not a flag: the command line takes it as an argument.
 */
import { z } from 'zod';

export interface FlagHelp {
  /** The value's placeholder in the help (`<usd>`); none for a switch. */
  value?: string;
  description: string;
  /** Given several times, each value kept in order. */
  repeatable?: boolean;
}

/** A flag as a command line declares it: `--max-tokens <n>`, its help, the default it shows. */
export interface FlagLine {
  syntax: string;
  description: string;
  default?: string | boolean;
  repeatable?: boolean;
}

const helpOf = z.registry<FlagHelp & { default?: string | boolean }, z.ZodType>();

/** `--maxTokens` → `--max-tokens`: a request's field and its flag are one name. */
export const flagName = (field: string): string => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A field that is a flag, with no default. */
export function flag<S extends z.ZodType>(schema: S, help: FlagHelp): S {
  helpOf.add(schema, help);
  return schema;
}

/**
 * A field that is a flag with a default, given as the command line would give it (`'4'`, `'output'`,
 * `false`): parsed like a given value, and shown in the help.
 */
export function flagWithDefault<S extends z.ZodType>(schema: S, defaultValue: string | boolean, help: FlagHelp) {
  const withDefault = schema.prefault(defaultValue as z.input<S>);
  helpOf.add(withDefault, { ...help, default: defaultValue });
  return withDefault;
}

/** The flags of a request's schema, in the order of its fields. */
export function flagsOf(schema: z.ZodObject): FlagLine[] {
  return Object.entries(schema.shape).flatMap(([field, fieldSchema]) => {
    const help = helpOf.get(fieldSchema as z.ZodType);
    if (!help) return [];
    const { value, default: shown, ...rest } = help;
    return [{ syntax: `${flagName(field)}${value ? ` ${value}` : ''}`, ...rest, ...(shown === undefined ? {} : { default: shown }) }];
  });
}
