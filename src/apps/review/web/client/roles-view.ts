/** Each role's SOP drawn as a state diagram, with the state it is in (or was last in) marked. */
import type { RoleView } from '../../server/api-types.ts';
import { roleChip } from './badges.ts';
import { diagram } from './diagrams.ts';
import { fill, h } from './dom.ts';
import { humanTime } from './format.ts';

function roleCard(role: RoleView): HTMLDivElement {
  const where = role.state
    ? [
        role.status === 'active' ? 'Now in ' : 'Last in ',
        h('strong', { class: 'state' }, role.state),
        ` (${role.status}${role.updatedAt ? `, ${humanTime(role.updatedAt)}` : ''}).`,
      ]
    : h('span', { class: 'muted' }, 'No state recorded by this run.');
  return h(
    'div',
    { class: 'card role-card', dataset: { role: role.id } },
    h('h3', {}, roleChip(role.id), ' ', role.title ?? ''),
    h('p', {}, role.watches.length ? `Watches ${role.watches.join(', ')}. ` : '', where),
    role.diagram ? diagram(role.diagram) : h('p', { class: 'muted' }, 'Its SOP could not be loaded (see the warnings above).'),
    role.fileSops.map((sub) =>
      h(
        'details',
        { class: 'file-sop', open: true, dataset: { key: `file-sop:${role.id}:${sub.name}`, sop: sub.name } },
        h(
          'summary',
          {},
          `Per-file SOP ${sub.name}`,
          h('span', { class: 'muted' }, sub.visited.length ? ` · the run passed through ${sub.visited.join(', ')}` : ' · not run'),
        ),
        diagram(sub.diagram),
      ),
    ),
  );
}

export function renderRoles(el: HTMLElement, roles: RoleView[]): void {
  if (roles.length === 0) {
    fill(el, h('p', { class: 'muted' }, 'No roles could be shown for this run.'));
    return;
  }
  fill(
    el,
    h('p', { class: 'muted' }, 'Yellow: the state a role is in, or was last in. Green: states the run passed through (its model calls say so).'),
    h('div', { class: 'roles-grid' }, roles.map(roleCard)),
  );
}
