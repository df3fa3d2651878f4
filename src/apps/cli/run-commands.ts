/** Hands the CLI's run and resume to eval and the queue's workers (src/apps/eval/run-commands.ts). */
import { useRunCommands } from '../eval/run-commands.ts';

export async function handRunCommandsDown(): Promise<void> {
  const [{ runCommand }, { resumeCommand }] = await Promise.all([import('./run-command.ts'), import('./resume-command.ts')]);
  useRunCommands({ run: runCommand, resume: resumeCommand });
}
