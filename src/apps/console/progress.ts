/**
 * Progress lines while a run goes on. One self-contained line per event, prefixed by the role, so
 * the output stays readable when several roles (or several files) are at work at once. On a terminal,
 * the live status line (live-status.ts) follows every event too: the steps under way, a call's progress
 * (tokens, rate, phase), the run's time, tokens and cost so far. Every value
 * an event carries may come from a model or a repository (a title, a file name, an error quoting a
 * reply): each goes through `cleanLine`, so none can break its line, colour it or drive the terminal.
 */
import pc from 'picocolors';
import type { RunEvent } from '../../company/index.ts';
import type { Message } from '../../engine/board/index.ts';
import { cleanLine as t } from '../../ground/terminal-text.ts';
import type { LiveStatus } from './live-status.ts';

const ROLE_WIDTH = 16;

export function progressPrinter(write: (line: string) => void, live: LiveStatus | null = null): (event: RunEvent) => void {
  const who = (role: string) => pc.cyan(t(role).padEnd(ROLE_WIDTH));
  return (event) => {
    live?.observe(event);
    switch (event.kind) {
      case 'start':
        write(`${pc.bold('sopworks')} · ${t(event.project)} → ${t(event.projectDir)}`);
        write(`model ${t(event.model)} · roles: ${t(event.roles.join(', '))}`);
        return;
      case 'notice':
        write(pc.yellow(t(event.text)));
        return;
      case 'model': {
        const e = event.event;
        const label = t(`${e.call.action}${e.call.key ? ` ${e.call.key}` : ''}`);
        if (e.kind === 'call-progress') return;
        if (e.kind === 'call-start') write(`${who(e.call.role)}${pc.dim('…')} ${label}${e.seat ? pc.dim(` (${t(e.seat)})`) : ''}`);
        else if (e.kind === 'call-repair')
          write(`${who(e.call.role)}${pc.yellow('↻')} ${label}: reply invalid (attempt ${e.attempt}), asking again — ${firstLine(e.error)}`);
        else if (e.kind === 'call-fallback') write(`${who(e.call.role)}${pc.yellow('⇄')} ${label}: ${t(e.reason)} with ${t(e.from)}; asking ${t(e.to)}`);
        else {
          const r = e.record;
          const tokens = `${r.promptTokens}→${r.completionTokens} tokens${r.counted ? ' (counted)' : ''}`;
          write(`${who(e.call.role)}${r.ok ? pc.green('✓') : pc.red('✗')} ${label} ${pc.dim(`${tokens}, ${(r.ms / 1000).toFixed(1)}s`)}`);
        }
        return;
      }
      case 'message':
        write(
          `${who(event.message.from)}${pc.magenta('⇢')} ${t(event.message.type)} → ${t(event.message.to)} ${pc.dim(t([event.message.id, summary(event.message)].filter(Boolean).join(' ')))}`,
        );
        return;
      case 'commit':
        write(`${who(event.role)}${pc.blue('●')} commit ${t(event.subject)}`);
        return;
      case 'tests-start':
        write(`${who(event.role)}${pc.dim('▶')} tests ${t(event.detail)}`);
        return;
      case 'tests-end':
        write(`${who(event.role)}${event.passed ? pc.green('■') : pc.red('■')} tests ${t(event.detail)}`);
        return;
      case 'check':
        write(`${who(event.role)}${pc.yellow('◆')} check ${t(event.detail)}`);
        return;
    }
  };
}

const firstLine = (text: string): string => t(text.split('\n')[0]!.slice(0, 120));

function summary(message: Message): string {
  const p = message.payload as Record<string, unknown>;
  switch (message.type) {
    case 'Code':
      return String(p.path);
    case 'Outcome':
      return `${p.outcome}: ${firstLine(String(p.reason))}`;
    case 'BugReport':
      return firstLine(String(p.summary));
    default:
      return '';
  }
}
