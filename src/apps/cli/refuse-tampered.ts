/** Before `resume` writes anything: a link where the record or repository should be is refused; the rest is warned about. */
import { SopworksError } from '../../ground/errors.ts';
import { describeFindings, inspectProject } from '../../host/git/index.ts';
import type { Output } from './output.ts';

export async function refuseTampered(projectDir: string, io: Output): Promise<void> {
  const findings = await inspectProject(projectDir);
  if (findings.refusals.length > 0) {
    throw new SopworksError('NOT_RESUMABLE', `Refused to resume ${projectDir}: ${findings.refusals.join('; ')}.`, {
      hint: 'sopworks would write through that link. Put the real folder back (or start a new run); nothing was written.',
    });
  }
  for (const line of describeFindings(projectDir, { refusals: [], warnings: findings.warnings })) io.err(`warning: ${line}`);
}
