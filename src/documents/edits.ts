/**
 * An Engineer's change to one existing file, as parsed from its reply (src/capabilities/model/parse/edits-reply.ts):
 * search/replace blocks, or a small file's whole new content. Applied by src/capabilities/change/apply-edits.ts.
 */
export interface SearchReplace {
  search: string;
  replace: string;
}

export type EditsReply = { kind: 'edits'; path: string; edits: SearchReplace[] } | { kind: 'whole'; path: string; content: string };
