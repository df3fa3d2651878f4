/**
 * Where a command's output goes: lines for a person on stdout — or, with `--json`, JSON lines on stdout
 * (json-lines-schema.ts) and the lines for a person on stderr, so a script reads stdout alone.
 */
import type { RunEvent } from '../../company/index.ts';
import { cleanBlock, cleanStrings } from '../../ground/terminal-text.ts';
import type { Lines as Output, SessionCommand } from '../../session/index.ts';
import { summarizeMessage } from '../review/index.ts';
import { fitLine } from './fit-line.ts';
import type { JsonLine } from './json-lines-schema.ts';
import type { LiveStatus } from './live-status.ts';
import { progressPrinter } from './progress.ts';

export interface CommandOutput {
  /** Lines for a person: stdout, or stderr when stdout carries JSON. */
  human: Output;
  /** Writes one JSON line; null without --json. */
  json: ((line: JsonLine) => void) | null;
  /** A run's progress: lines for a person, or JSON lines. */
  progress: (event: RunEvent) => void;
  /** The terminal's width the lines for a person are cut to; none for a pipe, a file or --json. */
  columns: () => number | undefined;
}

/**
 * `live`: the terminal's status line for a call's progress (live-status.ts), when there is one and no
 * --json; `columns`: the terminal's width, read at each line (it may be resized), to which progress lines
 * are cut — none for a pipe or a file.
 */
export function commandOutput(
  io: Output,
  json: boolean,
  command: SessionCommand | 'status' | 'review' = 'run',
  live: LiveStatus | null = null,
  columns: () => number | undefined = () => undefined,
): CommandOutput {
  if (!json) return { human: io, json: null, progress: progressPrinter((line) => io.out(fitLine(line, columns())), live), columns };
  // Every field may quote a model or a repository: no control but newline and tab in any of them.
  const write = (line: JsonLine) => io.out(JSON.stringify(cleanStrings(line, cleanBlock)));
  return {
    human: { out: (line) => io.err(line), err: (line) => io.err(line) },
    json: write,
    progress: (event) => write(jsonOfEvent(event, command === 'status' || command === 'review' ? 'run' : command)),
    columns: () => undefined,
  };
}

/** A run event as its JSON line. */
export function jsonOfEvent(event: RunEvent, command: SessionCommand): JsonLine {
  switch (event.kind) {
    case 'start':
      return { type: 'start', command, project: event.project, projectDir: event.projectDir, model: event.model, roles: event.roles };
    case 'notice':
      return { type: 'notice', text: event.text };
    case 'model': {
      const e = event.event;
      const call = { role: e.call.role, action: e.call.action, key: e.call.key };
      if (e.kind === 'call-start') return { type: 'call-start', ...call, seat: e.seat ?? null };
      if (e.kind === 'call-repair') return { type: 'call-repair', ...call, attempt: e.attempt, error: e.error };
      if (e.kind === 'call-fallback') return { type: 'call-fallback', ...call, from: e.from, to: e.to, reason: e.reason };
      if (e.kind === 'call-progress') return { type: 'call-progress', ...call, ...e.progress };
      const r = e.record;
      return {
        type: 'call-end',
        ...call,
        ok: r.ok,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
        cachedPromptTokens: r.cachedPromptTokens ?? 0,
        counted: r.counted,
        repairs: r.repairs,
        retries: r.retries,
        costUsd: r.costUsd,
        ms: r.ms,
      };
    }
    case 'message': {
      const m = event.message;
      return { type: 'message', id: m.id, messageType: m.type, from: m.from, to: m.to, summary: summarizeMessage(m) };
    }
    case 'commit':
      return { type: 'commit', role: event.role, subject: event.subject };
    case 'tests-start':
      return { type: 'tests-start', role: event.role, detail: event.detail };
    case 'tests-end':
      return { type: 'tests-end', role: event.role, detail: event.detail, passed: event.passed };
    case 'check':
      return { type: 'check', role: event.role, detail: event.detail };
  }
}
