/**
 * What `sopworks sop graph` prints: one role's SOP as a bare mermaid stateDiagram-v2, or the whole
 * company as a Markdown page — the message flowchart, then each role's state diagram — that renders
 * wherever mermaid blocks do (GitHub, most editors). Pure.
 */
import { SopworksError } from '../../ground/errors.ts';
import type { SopFile, Vocabulary } from '../steps/index.ts';
import { companyFlowchart } from './company-flowchart.ts';
import { sopStateDiagram } from './state-diagram.ts';

export interface GraphedCompany {
  name: string;
  roles: { id: string; watches: string[]; sop: SopFile; sopFile: string }[];
  vocabulary: Vocabulary;
}

export function roleGraph(company: GraphedCompany, roleId: string): string {
  const role = company.roles.find((r) => r.id === roleId);
  if (!role) {
    throw new SopworksError('USAGE', `No role "${roleId}" is hired in this company.`, {
      hint: `Use one of: ${company.roles.map((r) => r.id).join(', ')} — or leave out --role to draw them all.`,
    });
  }
  return sopStateDiagram(role.sop);
}

export function companyGraph(company: GraphedCompany): string {
  const fence = (text: string) => ['```mermaid', text.trimEnd(), '```'].join('\n');
  const sections = [
    `# ${company.name}`,
    '## Who sends what to whom',
    'Solid arrows are messages a role watches (sops/company.yaml); dashed ones are read by no role.',
    fence(companyFlowchart(company.roles, company.vocabulary)),
    ...company.roles.flatMap((role) => [`## ${role.id}`, `\`${role.sopFile}\` — watches ${role.watches.join(', ')}`, fence(sopStateDiagram(role.sop))]),
  ];
  return sections.join('\n\n') + '\n';
}
