/** What sopworks needs of the OpenAI SDK that LangChain wraps: its parse hook, and its errors by name. */

/**
 * Under `json_schema`, LangChain reads the reply through the OpenAI SDK's `parse`, which throws on content
 * that is not bare JSON — and the text is lost. `$parseRaw` (non-enumerable, so never sent) is the SDK's
 * own hook for a format's parser: it leaves the content to our parse and repair.
 */
export function leftUnparsed<T extends object>(format: T): T {
  return Object.defineProperty(format, '$parseRaw', { value: () => null, enumerable: false });
}

/** The OpenAI SDK's errors, recognised by name: the SDK is LangChain's dependency, not ours. */
export const isSdkError = (error: unknown, name: string): boolean => (error as Error)?.constructor?.name === name || (error as Error)?.name === name;
