/** A test command a repository's files declare, as sopworks would run it, and where it was read (shown in the map). */
export interface DeclaredCommand {
  argv: string[];
  /** Where it was read, with the words as written there ("tox.ini [testenv] commands: python -m unittest …"). */
  source: string;
  /** Programs it needs besides its own (a package.json script that calls pnpm). */
  needs?: string[];
}

/** A file of the repository at the base, or null when it is absent, binary or too large. */
export type ReadFile = (file: string) => Promise<string | null>;
