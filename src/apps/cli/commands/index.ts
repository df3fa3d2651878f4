/** Every command of `sopworks`, in the order `--help` lists them: one entry each (command-table.ts). */
import type { CommandEntry } from '../command-table.ts';
import { answerEntry } from './answer.ts';
import { approveEntry } from './approve.ts';
import { changeEntry } from './change.ts';
import { doctorEntry } from './doctor.ts';
import { evalEntry } from './eval.ts';
import { initEntry } from './init.ts';
import { jobsEntry } from './jobs.ts';
import { modelsEntry } from './models.ts';
import { resumeEntry } from './resume.ts';
import { reviewEntry } from './review.ts';
import { runEntry } from './run.ts';
import { sandboxEntry } from './sandbox.ts';
import { serveEntry } from './serve.ts';
import { sopEntry } from './sop.ts';
import { statusEntry } from './status.ts';
import { submitEntry } from './submit.ts';
import { workerEntry } from './worker.ts';

export const COMMANDS: readonly CommandEntry[] = [
  runEntry,
  changeEntry,
  resumeEntry,
  approveEntry,
  answerEntry,
  statusEntry,
  reviewEntry,
  serveEntry,
  initEntry,
  doctorEntry,
  evalEntry,
  workerEntry,
  submitEntry,
  jobsEntry,
  sopEntry,
  sandboxEntry,
  modelsEntry,
];
