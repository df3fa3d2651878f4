/** A machine's state value as people read it: "writing", or "review.deciding" for a nested state. */
export const stateName = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([key, inner]) => `${key}.${stateName(inner)}`)
        .join(',');
