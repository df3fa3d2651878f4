/**
 * `sopworks sop validate | graph | init | vocabulary`: check, draw, copy and look up the SOP and
 * template files that shape the company. Thin: parse, call src/engine/sop/, print.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { z } from 'zod';
import { loadCompany, validateCompany, vocabulary } from '../../company/index.ts';
import {
  type CompanyFolders,
  companyGraph,
  type Diagnostic,
  errorsIn,
  formatDiagnostic,
  initCompanyFolder,
  roleGraph,
  vocabularyReference,
  warningsIn,
} from '../../engine/sop/index.ts';
import { SopworksError } from '../../ground/errors.ts';
import { parseRequest } from '../../session/index.ts';
import { EXIT, type Output } from './output.ts';

const Folders = z.object({ sops: z.string().min(1), roles: z.string().min(1) });
const GraphOptions = Folders.extend({ role: z.string().min(1).optional(), out: z.string().min(1).optional() });
const InitOptions = z.object({ force: z.boolean().default(false) });

/** A path as short as it reads well: relative when under the working directory, else as it is. */
const shown = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return path.isAbsolute(file) && relative !== '' && !relative.startsWith('..') ? relative : file;
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function printDiagnostic(d: Diagnostic, io: Output): void {
  const severity = d.severity === 'error' ? pc.red('error') : pc.yellow('warning');
  io.out(formatDiagnostic(d).replace(`: ${d.severity}: `, `: ${severity}: `));
}

export async function validateSops(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(Folders, rawOptions, 'sop validate');
  const { company, diagnostics, files } = await validateCompany(options.sops, options.roles);
  diagnostics.forEach((d) => printDiagnostic(d, io));
  const errors = errorsIn(diagnostics).length;
  const warnings = warningsIn(diagnostics).length;
  const where = `${shown(options.sops)} and ${shown(options.roles)}`;
  if (errors > 0) {
    io.out(`${pc.red('✖')} ${where}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} — a run would refuse to start until the errors are fixed`);
    return EXIT.failed;
  }
  const roles = company ? plural(company.roles.length, 'role') : '';
  io.out(`${pc.green('✔')} ${where}: ${roles}, ${plural(files, 'file')} checked, no errors${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}`);
  return EXIT.done;
}

export async function graphSops(rawOptions: unknown, io: Output): Promise<number> {
  const options = parseRequest(GraphOptions, rawOptions, 'sop graph');
  const company = await loadCompany(options.sops, options.roles);
  const graphed = { name: company.name, roles: company.roles.map((r) => ({ ...r, sopFile: shown(r.sopFile) })), vocabulary: company.vocabulary };
  const text = options.role ? roleGraph(graphed, options.role) : companyGraph(graphed);
  if (!options.out) {
    io.out(text.trimEnd());
    return EXIT.done;
  }
  try {
    await fs.mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
    await fs.writeFile(options.out, text);
  } catch (error) {
    throw new SopworksError('OUTPUT_UNWRITABLE', `Cannot write ${options.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, {
      hint: 'Choose a file in a folder you can write to, or leave out --out to print the graph.',
    });
  }
  io.out(`Wrote ${options.out}`);
  return EXIT.done;
}

export async function initSops(dir: string, rawOptions: unknown, defaults: CompanyFolders, io: Output): Promise<number> {
  const options = parseRequest(InitOptions, rawOptions, 'sop init');
  const result = await initCompanyFolder(defaults, dir, options);
  if (result.overwritten.length > 0) io.err(`Overwrote ${plural(result.overwritten.length, 'file')} (--force): ${result.overwritten.join(', ')}`);
  const { sops, roles } = result.target;
  io.out(
    `Wrote ${plural(result.written.length, 'file')}: ${sops}${path.sep} (company.yaml and the SOPs) and ${roles}${path.sep} (profiles and prompt templates).`,
  );
  io.out('');
  io.out('Next: edit them (docs/sops.md describes the format), then');
  io.out(`  sopworks sop validate --sops ${sops} --roles ${roles}`);
  io.out(`  sopworks run --sops ${sops} --roles ${roles} "<spec>"`);
  return EXIT.done;
}

export function printVocabulary(io: Output): number {
  io.out(vocabularyReference(vocabulary).trimEnd());
  return EXIT.done;
}
