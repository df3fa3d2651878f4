/** Where the CLI writes, and the exit codes it returns (documented in the README). */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const EXIT = {
  done: 0,
  failed: 1,
  usage: 2,
  budgetExhausted: 3,
  awaitingApproval: 4,
  interrupted: 130,
} as const;

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};
