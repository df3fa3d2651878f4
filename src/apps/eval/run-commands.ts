/**
 * The CLI's `run`, `resume` and `change`, which a suite and a queue worker bring each spec's run to an outcome
 * with — exactly as a person would run it. They belong to the command line, a layer above eval and the
 * queue, so the command that runs many runs (`eval`, `worker`) hands them down here before it starts.
 */
export interface Lines {
  out(line: string): void;
  err(line: string): void;
}

export interface GivenText {
  instructions: string | null;
}

export interface RunCommands {
  /** `given`: what the run was handed as text rather than as a file (a job's instructions). */
  run(spec: string[], options: unknown, io: Lines, given?: GivenText): Promise<number>;
  resume(project: string, options: unknown, io: Lines): Promise<number>;
  /** `sopworks change <repo> <request…>`: a change task of a suite. */
  change(repo: string, request: string[], options: unknown, io: Lines): Promise<number>;
}

let installed: RunCommands | null = null;

export function useRunCommands(commands: RunCommands): void {
  installed = commands;
}

export function runCommands(): RunCommands {
  if (!installed) throw new Error('the run and resume commands were not handed to eval (useRunCommands): call it from the command that runs many runs');
  return installed;
}
