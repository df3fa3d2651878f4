/**
 * A problem found in the SOP and template files: where it is (file:line:column), how bad it is, and a
 * message that says what is wrong and what to do. Errors stop a run before anyone is hired; warnings
 * point at something that runs but does nothing useful.
 */
import type { ErrorCode } from '../../ground/errors.ts';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** SOP_INVALID for the YAML files, TEMPLATE_INVALID for the Handlebars templates. */
  code: Extract<ErrorCode, 'SOP_INVALID' | 'TEMPLATE_INVALID'>;
  /** "file:line:column". */
  where: string;
  message: string;
}

export const sopError = (where: string, message: string): Diagnostic => ({ severity: 'error', code: 'SOP_INVALID', where, message });
export const sopWarning = (where: string, message: string): Diagnostic => ({ severity: 'warning', code: 'SOP_INVALID', where, message });
export const templateError = (where: string, message: string): Diagnostic => ({ severity: 'error', code: 'TEMPLATE_INVALID', where, message });

/** "file:line:column: error: message" — the shape compilers use, so editors can jump to it. */
export const formatDiagnostic = (d: Diagnostic): string => `${d.where}: ${d.severity}: ${d.message}`;

export const errorsIn = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.severity === 'error');
export const warningsIn = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.severity === 'warning');

/** Drops repeats (a shared partial included by several templates reports its problem once). */
export function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const id = `${d.severity}\u0000${formatDiagnostic(d)}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
