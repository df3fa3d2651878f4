/** `--until <point>`: the points a company's SOPs stop at (`stopAt` steps), and the refusal of any other; `--clarify` without a `clarify` step. */
import { SopworksError } from '../../ground/errors.ts';
import { stepsNamed } from '../sop/index.ts';
import type { CompanyDefinition } from './load-company.ts';

/** The points a company's SOPs may stop at: every `stopAt` step of every role's SOP and per-file SOP, in org-chart order. */
export function stopPointsOf(company: CompanyDefinition): string[] {
  const points = company.roles.flatMap((role) =>
    [role.sop, ...Object.values(role.subSops)].flatMap((sop) => stepsNamed<{ point: string }>(sop, company.vocabulary, 'stopAt')),
  );
  return [...new Set(points.flatMap((step) => (step.params ? [step.params.point] : [])))];
}

/** Refuses, before anything is written, a point no SOP of the company stops at. */
export function checkUntil(company: CompanyDefinition, until: string | null | undefined): void {
  if (until === null || until === undefined) return;
  const points = stopPointsOf(company);
  if (points.includes(until)) return;
  throw new SopworksError('USAGE', `--until ${until}: no SOP of this company has a stop point "${until}".`, {
    hint: points.length
      ? `Stop at one of: ${points.join(', ')} (the stopAt steps of ${company.sopsDir}).`
      : `The SOPs in ${company.sopsDir} have no stopAt step: add one where the run may stop (docs/sops.md).`,
  });
}

/** Refuses `--clarify` when no SOP of the company asks the person anything (no `clarify` step): it would do nothing. */
export function checkClarify(company: CompanyDefinition, clarify: boolean): void {
  if (!clarify) return;
  if (company.roles.some((role) => [role.sop, ...Object.values(role.subSops)].some((sop) => stepsNamed(sop, company.vocabulary, 'clarify').length > 0))) return;
  throw new SopworksError('USAGE', '--clarify: no SOP of this company asks the person questions (it has no clarify step).', {
    hint: `Add a clarify step before the role writes (sops/product-manager.yaml does, before the PRD; docs/sops.md), or leave out --clarify.`,
  });
}
