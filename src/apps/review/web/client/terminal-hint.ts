/** Without the page's token: how to act anyway — the URL `sopworks serve` printed, or the command in a terminal. */
import { h } from './dom.ts';

/** `act`: what the page would do ("decide", "do it"); `command`: the same in a terminal. */
export const terminalHint = (act: string, command: string) =>
  h(
    'p',
    { class: 'muted' },
    `To ${act} from this page, open the URL `,
    h('code', {}, 'sopworks serve'),
    ' printed (it ends in ',
    h('code', {}, '?token=…'),
    '). Or, in a terminal: ',
    h('code', {}, command),
    '.',
  );
