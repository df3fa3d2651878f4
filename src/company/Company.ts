/**
 * The company: hires the roles of the org chart, wires each SOP machine to the board, posts the
 * requirement and runs until an outcome — `done`, `failed` — never a hang: a company in which no role
 * is at work and no outcome was reached has stalled, and says where.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppendLog } from '../board/append-log.ts';
import { MessageBoard } from '../board/MessageBoard.ts';
import type { Draft, Message } from '../board/message.ts';
import type { Outcome, TestReport } from '../artifacts/schemas.ts';
import { describeError } from '../errors.ts';
import { Gateway } from '../llm/Gateway.ts';
import { PromptRenderer } from '../llm/prompt-renderer.ts';
import type { Provider } from '../llm/provider.ts';
import { UsageMeter } from '../llm/usage.ts';
import { RoleRuntime } from '../roles/RoleRuntime.ts';
import { buildMachine } from '../sop/build-machine.ts';
import type { RoleServices } from '../sop/services.ts';
import { Materializer } from '../workspace/materializer.ts';
import { Workspace, type Author } from '../workspace/Workspace.ts';
import type { CompanyDefinition } from './load-company.ts';
import type { RunEvent } from './run-events.ts';

export const CLIENT = 'client';

export interface RunRequest {
  spec: string;
  project: string;
  /** The folder to create the repository in (must not exist yet). */
  projectDir: string;
  company: CompanyDefinition;
  provider: Provider;
  maxRepairs: number;
  onEvent?: (event: RunEvent) => void;
}

export interface RunResult {
  outcome: Outcome['outcome'];
  reason: string;
  projectDir: string;
  usage: UsageMeter;
  messages: readonly Message[];
  lastTestReport: TestReport | null;
  wallMs: number;
}

export async function runCompany(request: RunRequest): Promise<RunResult> {
  const started = Date.now();
  const emit = request.onEvent ?? (() => {});
  const { company } = request;
  const workspace = await Workspace.create(request.projectDir);
  const stateDir = workspace.stateDir;
  const { board } = await MessageBoard.open(path.join(stateDir, 'board.jsonl'));
  const exchanges = await AppendLog.open(path.join(stateDir, 'exchanges.jsonl'));
  const meter = new UsageMeter();
  const runInfo = {
    spec: request.spec,
    project: request.project,
    model: request.provider.label,
    sops: path.resolve(company.sopsDir),
    roles: path.resolve(company.rolesDir),
    startedAt: new Date(started).toISOString(),
  };
  await fs.writeFile(path.join(stateDir, 'run.json'), JSON.stringify(runInfo, null, 2) + '\n');

  const authors = new Map<string, Author>(company.roles.map((r) => [r.id, { name: r.profile.title, email: r.profile.email }]));
  const materializer = new Materializer(
    board,
    workspace,
    (id) => authors.get(id) ?? { name: id, email: `${id}@sopworks.local` },
    (message, subject) => emit({ kind: 'commit', role: message.from, subject }),
  );
  board.subscribe((message) => emit({ kind: 'message', message }));

  const gateway = new Gateway({
    provider: request.provider,
    renderer: new PromptRenderer(company.rolesDir),
    meter,
    exchanges,
    maxRepairs: request.maxRepairs,
    onEvent: (event) => emit({ kind: 'model', event }),
  });
  const publish = async (draft: Draft): Promise<Message> => {
    const message = await board.post(draft);
    await materializer.committed(message.id);
    return message;
  };

  let finish!: (outcome: Outcome) => void;
  const finished = new Promise<Outcome>((resolve) => (finish = resolve));
  let concluded = false;
  const conclude = (outcome: Outcome) => {
    if (concluded) return;
    concluded = true;
    finish(outcome);
  };

  let watching = false;
  let checkScheduled = false;
  /** An outcome posted on the board; the run ends with it once every role has finished its step. */
  let posted: Outcome | null = null;
  const runtimes: RoleRuntime[] = [];
  const checkProgress = () => {
    checkScheduled = false;
    if (concluded || !watching) return;
    for (const runtime of runtimes) {
      const status = runtime.status();
      if (status.kind === 'error') {
        return conclude({ outcome: 'failed', reason: `${runtime.id} failed in step "${status.state}": ${describeError(status.error)}` });
      }
    }
    if (runtimes.every((r) => r.status().kind !== 'working')) {
      if (posted) return conclude(posted);
      const waiting = runtimes.flatMap((r) => r.waiting.map((m) => `${r.id} has ${m.type} ${m.id} waiting in state "${r.state}"`));
      const last = board.list().at(-1);
      conclude({
        outcome: 'failed',
        reason:
          `the company stalled: no role is at work and no outcome was reached` +
          (waiting.length > 0 ? ` (${waiting.join('; ')})` : last ? ` (last message: ${last.type} ${last.id} from ${last.from})` : ''),
      });
    }
  };
  const onRoleChange = () => {
    if (!checkScheduled) {
      checkScheduled = true;
      setImmediate(checkProgress);
    }
  };

  for (const role of company.roles) {
    const services: RoleServices = {
      profile: role.profile,
      board,
      gateway,
      workspace,
      publish,
      report: (event) => emit({ kind: event.kind, role: role.id, detail: event.detail }),
    };
    runtimes.push(new RoleRuntime(role.id, buildMachine(role.sop, services), onRoleChange));
  }
  const watchers = new Map(company.roles.map((r) => [r.id, new Set(r.watches)]));
  board.subscribe((message) => {
    // The first outcome stands; roles still at work (a writer documenting the code, say) finish first.
    if (message.type === 'Outcome' && !posted) posted = message.payload as Outcome;
    for (const runtime of runtimes) {
      const addressed = message.to === 'all' || message.to === runtime.id;
      if (addressed && message.from !== runtime.id && watchers.get(runtime.id)!.has(message.type)) runtime.deliver(message);
    }
  });

  emit({ kind: 'start', project: request.project, projectDir: request.projectDir, model: request.provider.label, roles: company.roles.map((r) => r.id) });
  for (const runtime of runtimes) runtime.start();
  await publish({ type: 'Requirement', from: CLIENT, payload: { spec: request.spec, project: request.project } });
  watching = true;
  onRoleChange();

  const outcome = await finished;
  for (const runtime of runtimes) runtime.stop();
  await materializer.settled();
  materializer.stop();
  await board.close();
  await exchanges.close();

  const result: RunResult = {
    outcome: outcome.outcome,
    reason: outcome.reason,
    projectDir: request.projectDir,
    usage: meter,
    messages: board.list(),
    lastTestReport: (board.latest<TestReport>('TestReport')?.payload as TestReport | undefined) ?? null,
    wallMs: Date.now() - started,
  };
  await fs.writeFile(
    path.join(stateDir, 'run.json'),
    JSON.stringify(
      { ...runInfo, finishedAt: new Date().toISOString(), outcome: result.outcome, reason: result.reason, wallMs: result.wallMs, usage: { total: meter.total(), byRole: Object.fromEntries(meter.byRole()), byAction: Object.fromEntries(meter.byAction()) } },
      null,
      2,
    ) + '\n',
  );
  return result;
}
