/**
 * The budget over a whole client's catalogue. Each schema already passed the per-schema budgets
 * (`schema-budget.ts`), but a server may advertise any number of tools; counting every JSON value
 * across them, with an explicit stack and a stop at the limit, bounds what generation will copy
 * and convert for one client.
 */
import { RAW_MAX_VALUES } from '../client/tools/schema-budget.js';

/** JSON values (objects, arrays and primitives alike) one client's schemas may hold in total. */
export const CATALOGUE_MAX_VALUES = 5 * RAW_MAX_VALUES;

/** The number of JSON values in `value`, counting stops once it passes `limit`. */
export function countJsonValues(value: unknown, limit: number): number {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0 && count <= limit) {
    const next = stack.pop();
    count++;
    if (typeof next === 'object' && next !== null) for (const child of Object.values(next)) stack.push(child);
  }
  return count;
}
