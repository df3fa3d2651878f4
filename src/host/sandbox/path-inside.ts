import path from 'node:path';

/** True when `child` is `parent` or inside it (both absolute). */
export function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
