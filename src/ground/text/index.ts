/** ground/text: its public face — what other folders may use of it. */
export { CONTROL, LAYOUT } from './control-characters.ts';
export { definitionLine, type Excerpt, excerpt, isProse, mentionLine, namesMentioned, SHOWN_CHARS } from './file-excerpt.ts';
export { type IniSections, iniSections } from './ini-sections.ts';
export { keywordOfPattern, keywordPattern } from './keyword-pattern.ts';
export { commitSubject, MAX_SUBJECT, oneLine, shortLine } from './one-line.ts';
