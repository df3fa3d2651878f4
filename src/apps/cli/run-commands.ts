/** Hands the CLI's run, resume and change to eval and the queue's workers (src/apps/eval/run-commands.ts). */
import { useRunCommands } from '../eval/index.ts';

export async function handRunCommandsDown(): Promise<void> {
  const [{ runCommand }, { resumeCommand }, { changeCommand }] = await Promise.all([
    import('./run-command.ts'),
    import('./resume-command.ts'),
    import('./change-command.ts'),
  ]);
  useRunCommands({ run: runCommand, resume: resumeCommand, change: changeCommand });
}
