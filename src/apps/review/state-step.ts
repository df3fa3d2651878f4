/**
 * What a role does in a state of its SOP, in a few words a person reads, for the viewer's "now working
 * on" line: "writing the PRD", "waiting for a person to approve the design", "working through the
 * files", "waiting for a task graph or a bug report" — never a step's or a state's own name
 * (`awaitApproval`, `toReview`). Pure: read from the SOP file itself, so it is true of any SOP, the
 * shipped ones or a user's; a state's `description` is said as it is.
 */
import type { SopFile, StateNodeConfig } from '../../engine/steps/index.ts';

function nodeAt(sop: SopFile, dotted: string): StateNodeConfig | null {
  let states: Record<string, StateNodeConfig> | undefined = sop.states;
  let node: StateNodeConfig | null = null;
  for (const name of dotted.split('.')) {
    node = states?.[name] ?? null;
    if (!node) return null;
    states = node.states;
  }
  return node;
}

const ACRONYMS = new Set(['prd', 'qa', 'json', 'api', 'cli']);

/** `write_prd`, `TaskGraph`, `fastCheck` → "write PRD", "task graph", "fast check". */
export function wordsOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()))
    .join(' ');
}

/** The verbs a model call's action starts with, as the thing being done. */
const DOING: Record<string, string> = {
  write: 'writing',
  review: 'reviewing',
  revise: 'revising',
  fix: 'fixing',
  edit: 'editing',
  choose: 'choosing',
  clarify: 'asking questions about',
};

/** "writing the PRD", "reviewing the file", "asking questions about the change". */
function modelCall(action: string): string {
  const [verb = '', ...rest] = wordsOf(action).split(' ');
  const thing = rest.length > 0 ? `the ${rest.join(' ')}` : 'it';
  return DOING[verb] ? `${DOING[verb]} ${thing}` : `asking the model to ${wordsOf(action)}`;
}

const article = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

/** A step as the thing a role is doing, from its kind (`src`) and its main parameter. */
function stepWords(src: string, input: Record<string, unknown>): string {
  const param = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : null);
  switch (src) {
    case 'ask':
      return param('action') ? modelCall(param('action')!) : 'asking the model';
    case 'awaitApproval':
      return `waiting for a person to approve the ${wordsOf(param('gate') ?? 'work')}`;
    case 'clarify':
      return 'asking the person questions first';
    case 'eachFile':
      return 'working through the files';
    case 'publish':
      return param('type') ? `publishing the ${wordsOf(param('type')!)}` : 'publishing';
    case 'runTests':
      return 'running the tests';
    case 'stopAt':
      return `stopped after the ${wordsOf(param('point') ?? 'step')}, as --until asked`;
    case 'conclude':
      return `ending the run: ${param('outcome') ?? 'done'}`;
    default:
      return wordsOf(src);
  }
}

export function describeStep(sop: SopFile, dotted: string): string | null {
  const node = nodeAt(sop, dotted);
  if (!node) return null;
  if (node.description) return node.description;
  const invoke = Array.isArray(node.invoke) ? node.invoke[0] : node.invoke;
  if (invoke) return stepWords(invoke.src, (invoke.input ?? {}) as Record<string, unknown>);
  if (node.type === 'final') return 'finished';
  const waits = Object.keys(node.on ?? {});
  return waits.length ? `waiting for ${waits.map((type) => article(wordsOf(type))).join(' or ')}` : null;
}
