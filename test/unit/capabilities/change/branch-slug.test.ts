/**
 * A change's branch name: the request's leading phrase in whole words, ended where its first clause
 * begins or after a few words, never on a word that waits for the rest of its phrase.
 */
import assert from 'node:assert/strict';
import { branchSlug } from '../../../../src/capabilities/change/branch-slug.ts';

describe('the branch name of a change', () => {
  const cases: [string, string][] = [
    // Ended where the clause begins, not mid-phrase (`add-defu-variant-replaces`).
    ['add a defu variant that replaces arrays instead of merging', 'add-defu-variant'],
    ['add a --json flag that prints the entries as JSON', 'add-json-flag'],
    // A call's arguments are no part of its name; the first clause ends at the colon.
    ['Add strip(text): remove ANSI codes', 'add-strip'],
    // At most five words, and never ending on a word that waits for its object.
    ['let the cli accept a --verbose flag for every command and print more', 'let-cli-accept-verbose-flag'],
    ['fix the bug in', 'fix-bug'],
    ['make word_count accept a pathlib.Path', 'make-word-count-accept-pathlib-path'],
    ['let greet take a language option (en or fr)', 'let-greet-take-language-option'],
    // Letters git would refuse or a person could not type become their nearest ASCII.
    ['Ünïcödé naïve café support', 'unicode-naive-cafe-support'],
    // Nothing left of the request: a name all the same.
    ['please', 'change'],
    ['!!!', 'change'],
  ];
  for (const [request, slug] of cases) {
    it(`names "${request}" ${slug}`, () => assert.equal(branchSlug(request), slug));
  }

  it('is whole words, at most 40 characters, whatever the request', () => {
    const slug = branchSlug('internationalisation localisation configuration serialisation deserialisation');
    assert.ok(slug.length <= 40, slug);
    assert.ok(
      slug.split('-').every((word) => 'internationalisation localisation configuration serialisation deserialisation'.split(' ').includes(word)),
      slug,
    );
  });
});
