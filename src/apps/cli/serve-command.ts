/** `sopworks serve [dir]`: the local web viewer of the runs in a folder, until Ctrl-C. */
import { z } from 'zod';
import { describeError, SopworksError } from '../../ground/errors.ts';
import { isLoopback, startReviewServer } from '../review/index.ts';
import { EXIT, type Output } from './output.ts';

export const ServeOptions = z.object({
  port: z.string().regex(/^\d+$/, 'a port is a number').transform(Number).pipe(z.number().int().max(65535, 'a port is at most 65535')),
  host: z.string().trim().min(1),
  allowHost: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[\w.\-[\]:]+$/, 'a host name, an address, or either with :port'),
    )
    .default([]),
  llm: z.string().trim().min(1).optional(),
  model: z.string().trim().min(1).optional(),
});

/** What a page opened with the token may do. */
const WORKBENCH = 'a run awaiting approval is decided and goes on, a stopped run is continued, a finished one is handed a change';

export async function serveCommand(dir: string, rawOptions: unknown, io: Output): Promise<number> {
  const parsed = ServeOptions.safeParse(rawOptions);
  if (!parsed.success) {
    throw new SopworksError('USAGE', `Bad option: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}.`, {
      hint: 'Example: sopworks serve output --port 4173',
    });
  }
  const server = await startReviewServer({
    dir,
    port: parsed.data.port,
    host: parsed.data.host,
    allowHosts: parsed.data.allowHost,
    onError: (error) => io.err(`error while answering a request: ${describeError(error)}`),
    launch: { llm: parsed.data.llm, model: parsed.data.model },
  });
  // As Jupyter does: the URL carries the secret that lets this browser decide on runs awaiting approval.
  io.out(`sopworks viewer of ${dir}: ${server.tokenUrl}`);
  if (!isLoopback(parsed.data.host)) {
    io.err(
      `warning: listening on ${parsed.data.host}, beyond this machine: every request needs the token, reads included — share that URL only with whom may read every run in ${dir}, prompts included.`,
    );
    io.out(`It follows runs in progress; from a page opened with that URL, ${WORKBENCH}. Ctrl-C to stop.`);
  } else {
    io.out(`It follows runs in progress; from a page opened with that URL, ${WORKBENCH} (read-only without the token: ${server.url}). Ctrl-C to stop.`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // Runs this viewer started are interrupted once (their steps in flight finish); `resume` continues them.
  const active = server.activeRuns();
  if (active > 0) io.err(`Stopping: ${active} run(s) this viewer started are interrupted once, and waited for (\`sopworks resume\` continues them).`);
  await server.close();
  return EXIT.done;
}
