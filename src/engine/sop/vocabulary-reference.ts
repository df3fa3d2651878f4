/**
 * The vocabulary as Markdown tables — actions, guards, actors with their parameters (read from their
 * zod schemas), the views a step can use, and the message types — printed by `sopworks sop vocabulary`
 * and embedded in docs/sops.md (a test keeps the two identical). Pure.
 */
import { z } from 'zod';
import { messageTypes } from '../../company/message-types.ts';
import { viewNames } from '../../capabilities/artifacts/views.ts';
import { vocabulary, type VocabularyEntry } from '../../company/vocabulary/index.ts';

/** What each view is; a test checks this lists exactly the views of src/capabilities/artifacts/views.ts. */
export const VIEW_DESCRIPTIONS: Record<string, string> = {
  spec: "The client's one-line spec (from the Requirement).",
  project: 'The project name (from the Requirement).',
  error: 'The last error noted by `noteError` (empty when none).',
  done: 'The files finished since the queue was last filled.',
  current: 'The path of the current file (null when none).',
  task: "The current file's task from the TaskGraph: `file`, `description`, `dependsOn`.",
  dependencies: "The current file's dependencies: each `path` and the `interface` (exports and signatures) of what is written so far.",
  designExcerpt:
    "The part of the Design that concerns the current file (src/capabilities/artifacts/design-excerpt.ts): `summary`, `approach`, `language`, `testCommand`, `runCommand`, the file's row (`file`: `path`, `purpose`) and its dependencies' rows (`dependencies`), its `classes`, and the `classDiagram` and `sequenceDiagram` lines about them.",
  file: 'The current file as last committed: `path`, `content`.',
  files: 'Every file committed so far (newest version of each, in task order): `path`, `content`.',
  prd: 'The latest PRD.',
  design: 'The latest Design.',
  tasks: 'The latest TaskGraph.',
  tests: 'The latest Tests (`files`).',
  testReport: 'The latest TestReport.',
  bug: 'The latest BugReport.',
  changeTask:
    "A change run's current file's task from the ChangeTaskGraph: `file`, `op`, `from`, `description`, `dependsOn` (a file a bug report names outside the tasks: a modification).",
  changeRemoval: "What the current delete or rename task removes, as a Removal: `path`, `renamedTo`, and a rename's `content` (from the slot draft).",
  repoMap:
    'The latest RepositoryMap (a change run): `tree`, `manifests`, `readmes`, `interfaces` (ranked signatures), `hasTests`, `tests` (`files`, `commands`), `fileCount`, `omitted`, `signatureTokens`, `base`, `branch`, `changeDir`.',
  changeRequest: 'The latest ChangeRequest.',
  designDelta: 'The latest DesignDelta.',
  changeTasks: 'The latest ChangeTaskGraph.',
  baseline: 'The latest BaselineTests: the existing tests as they ran on the base, before the change.',
};

/** What each message type is for; a test checks this lists exactly the registered types. */
export const MESSAGE_DESCRIPTIONS: Record<string, string> = {
  Requirement: "The client's spec; posted by the company when a run starts (`spec`, `project`).",
  PRD: 'Product requirements; committed as docs/prd.md.',
  Design: 'System design: language, test and run commands, files, class and sequence diagrams; committed as docs/design.md and README.md.',
  TaskGraph: 'One task per file, with dependencies; committed as docs/tasks.md.',
  Code: 'One source file (`path`, `content`, `review`); committed at its path.',
  CodeComplete: 'A round of files is finished (`files`).',
  Tests: 'Test files (`files`); committed at their paths.',
  TestReport:
    'The result of a test round (the tests; a failed dependency install; the program run on its smoke input); committed as docs/test-reports/round-N.md.',
  Dependencies:
    'A dependency install before a test round (installDependencies); commits the lockfile it wrote when it changed (package-lock.json, requirements.lock).',
  BugReport: 'What failed and which files must change; committed as docs/bug-reports/bug-N.md.',
  Document: 'A document at a path of the role\'s choosing (`path`, `content`), e.g. a user guide; committed at its path as "docs: <path>".',
  Approval: "A person's decision on an artifact held back by `awaitApproval` (`role`, `gate`, `key`, `round`, `approved`, `feedback`); posted by the client.",
  Outcome: 'Ends the run: `outcome` done or failed, and a `reason`. Read by the company itself.',
  RepositoryMap:
    "A change run's map of the repository at the base (every path, manifests, README, its test commands, the ranked signatures within a token budget); committed as docs/changes/<n>-<slug>/repository-map.md.",
  ChangeRequest:
    'What a change does: `changes`, `acceptanceCriteria`, `mustKeepWorking`, `outOfScope`; committed as docs/changes/<n>-<slug>/change-request.md.',
  DesignDelta:
    'A Design of what the repository becomes (its `testCommand` runs old and new tests) plus what stays `unchanged`; committed as docs/changes/<n>-<slug>/design.md.',
  ChangeTaskGraph:
    'One task per file to `modify`, `add`, `delete` or `rename` (`from`: its old path), with dependencies; committed as docs/changes/<n>-<slug>/tasks.md.',
  Removal: 'A deleted file (`path`), or a renamed one (`path` → `renamedTo`, with its `content`), committed in one commit that removes the old path.',
  BaselineTests:
    'The existing tests as they ran on the base before the change (`ran`: false when there are none); committed as docs/changes/<n>-<slug>/baseline-tests.md.',
};

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  default?: unknown;
  minimum?: number;
  pattern?: string;
};

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.type === 'array') return `list of ${typeOf(schema.items ?? {})}`;
  if (schema.type === 'object') return 'map of names';
  if (schema.type === 'integer' && schema.minimum !== undefined) return `integer ≥ ${schema.minimum}`;
  return Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
}

function parameters(entry: VocabularyEntry): string {
  const schema = z.toJSONSchema(entry.params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const names = Object.entries(schema.properties ?? {});
  if (names.length === 0) return '—';
  return names
    .map(([name, p]) => {
      const required = schema.required?.includes(name);
      const extra = required ? '' : p.default !== undefined ? `, default \`${JSON.stringify(p.default)}\`` : ', optional';
      return `\`${name}\`: ${typeOf(p)}${extra}`;
    })
    .join('<br>');
}

/** A table cell: pipes escaped, and outside `code` the angle brackets, which Markdown would take for HTML. */
const escapeCell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;').replace(/>/g, '&gt;') : part))
    .join('`');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function vocabularyReference(): string {
  const kind = (title: string, entries: Record<string, VocabularyEntry>, intro: string) =>
    [
      `### ${title}`,
      intro,
      table(
        ['name', 'parameters', 'what it does'],
        Object.entries(entries).map(([name, e]) => [`\`${name}\``, parameters(e), escapeCell(e.description)]),
      ),
    ].join('\n\n');
  return (
    [
      kind('Actions', vocabulary.action, "Named in `entry`, `exit` and a transition's `actions`: `keep` or `{ type: keep, params: { slot: prd } }`."),
      kind('Guards', vocabulary.guard, "Named in a transition's `guard`: `approved` or `{ type: below, params: { counter: revisions, max: 2 } }`."),
      kind('Actors (steps)', vocabulary.actor, 'Named in `invoke.src`, with their parameters in `invoke.input`.'),
      '### Views',
      'Names a step can hand to a template (`with`), put in a payload (`payload`, `fields`) or add to an outcome (`detail`). A slot the SOP keeps under the same name takes precedence.',
      table(
        ['view', 'what it is'],
        viewNames().map((name) => [`\`${name}\``, escapeCell(VIEW_DESCRIPTIONS[name] ?? '')]),
      ),
      '### Message types',
      'What roles watch (company.yaml) and publish; those that commit files say which.',
      table(
        ['type', 'what it is', 'commits'],
        Object.entries(messageTypes).map(([name, type]) => [`\`${name}\``, escapeCell(MESSAGE_DESCRIPTIONS[name] ?? ''), type.files ? 'yes' : 'no']),
      ),
    ].join('\n\n') + '\n'
  );
}
