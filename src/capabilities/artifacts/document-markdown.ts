/** A document (an artifact held back for approval, say) as markdown for a person to read; anything else as it is. */
import { z } from 'zod';
import * as S from '../../documents/index.ts';
import { fence } from '../../ground/markdown.ts';
import { renderDesign } from './render/design.ts';
import { renderPrd } from './render/prd.ts';

const fileSection = (file: S.CodeFile): string => `### ${file.path}\n\n${fence(file.content)}`;

/** `projectName`: what a design is titled with, as its committed docs/design.md is (the PRD's name for the project). */
export function documentMarkdown(value: unknown, projectName: string): string {
  const prd = S.PRD.safeParse(value);
  if (prd.success) return renderPrd(prd.data);
  const design = S.Design.safeParse(value);
  if (design.success) return renderDesign(design.data, projectName);
  const file = S.CodeFile.safeParse(value);
  if (file.success) return fileSection(file.data);
  const files = z.array(S.CodeFile).safeParse(value);
  if (files.success) return files.data.map(fileSection).join('\n\n');
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
