/**
 * Canonical JSON for event subscription arguments: object keys sorted at every depth, no
 * whitespace, otherwise `JSON.stringify` semantics (members whose value is `undefined` are
 * dropped). Two argument objects name the same subscription exactly when their canonical forms
 * are equal, whatever the key order they were written in.
 */

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return sortKeys((value as { toJSON(): unknown }).toJSON());
  }
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
