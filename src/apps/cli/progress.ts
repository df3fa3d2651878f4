/**
 * Progress lines while a run goes on. One self-contained line per event, prefixed by the role, so
 * the output stays readable when several roles (or several files) are at work at once.
 */
import pc from 'picocolors';
import type { RunEvent } from '../../company/run-events.ts';
import type { Message } from '../../engine/board/message.ts';

const ROLE_WIDTH = 16;

export function progressPrinter(write: (line: string) => void): (event: RunEvent) => void {
  const who = (role: string) => pc.cyan(role.padEnd(ROLE_WIDTH));
  return (event) => {
    switch (event.kind) {
      case 'start':
        write(`${pc.bold('sopworks')} · ${event.project} → ${event.projectDir}`);
        write(`model ${event.model} · roles: ${event.roles.join(', ')}`);
        return;
      case 'notice':
        write(pc.yellow(event.text));
        return;
      case 'model': {
        const e = event.event;
        const label = `${e.call.action}${e.call.key ? ` ${e.call.key}` : ''}`;
        if (e.kind === 'call-start') write(`${who(e.call.role)}${pc.dim('…')} ${label}${e.seat ? pc.dim(` (${e.seat})`) : ''}`);
        else if (e.kind === 'call-repair')
          write(`${who(e.call.role)}${pc.yellow('↻')} ${label}: reply invalid (attempt ${e.attempt}), asking again — ${firstLine(e.error)}`);
        else if (e.kind === 'call-fallback') write(`${who(e.call.role)}${pc.yellow('⇄')} ${label}: ${e.reason} with ${e.from}; asking ${e.to}`);
        else {
          const r = e.record;
          const tokens = `${r.promptTokens}→${r.completionTokens} tokens${r.counted ? ' (counted)' : ''}`;
          write(`${who(e.call.role)}${r.ok ? pc.green('✓') : pc.red('✗')} ${label} ${pc.dim(`${tokens}, ${(r.ms / 1000).toFixed(1)}s`)}`);
        }
        return;
      }
      case 'message':
        write(
          `${who(event.message.from)}${pc.magenta('⇢')} ${event.message.type} → ${event.message.to} ${pc.dim([event.message.id, summary(event.message)].filter(Boolean).join(' '))}`,
        );
        return;
      case 'commit':
        write(`${who(event.role)}${pc.blue('●')} commit ${event.subject}`);
        return;
      case 'tests-start':
        write(`${who(event.role)}${pc.dim('▶')} tests ${event.detail}`);
        return;
      case 'tests-end':
        write(`${who(event.role)}${/passed/.test(event.detail) ? pc.green('■') : pc.red('■')} tests ${event.detail}`);
        return;
      case 'check':
        write(`${who(event.role)}${pc.yellow('◆')} check ${event.detail}`);
        return;
    }
  };
}

const firstLine = (text: string): string => text.split('\n')[0]!.slice(0, 120);

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
