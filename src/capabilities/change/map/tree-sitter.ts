/**
 * The map's tools per language: the grammar (src/ground/syntax/) and one compiled query holding both
 * its definitions and its comments and strings (tag-queries.ts): a file's tree is walked once, not once
 * per query (the walk is most of a query's cost).
 */
import { type Grammar, grammarOf, type SyntaxNode, type SyntaxQuery } from '../../../ground/syntax/index.ts';
import { type MapLanguage, TAG_QUERIES } from './tag-queries.ts';

export type { SyntaxNode };

export interface LanguageTools {
  parser: Grammar['parser'];
  /** The definitions' patterns and the `@text` pattern, in one query. */
  tags: SyntaxQuery;
}

const loaded = new Map<MapLanguage, Promise<LanguageTools>>();

export function languageTools(language: MapLanguage): Promise<LanguageTools> {
  let tools = loaded.get(language);
  if (!tools) {
    tools = load(language);
    loaded.set(language, tools);
  }
  return tools;
}

async function load(language: MapLanguage): Promise<LanguageTools> {
  const grammar = await grammarOf(language);
  const queries = TAG_QUERIES[language];
  return { parser: grammar.parser, tags: grammar.query(`${queries.definitions}\n${queries.text}`) };
}
