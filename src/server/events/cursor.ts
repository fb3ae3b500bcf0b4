/**
 * Opaque cursors: an event cursor wraps a store position with the store's epoch (so a cursor a
 * restarted in-memory store never issued is recognised), a list cursor wraps a page offset.
 * Both are base64url JSON; clients must not parse them, and anything that does not decode is
 * answered with InvalidParams.
 */

const EVENT_CURSOR_VERSION = 1;

export interface DecodedEventCursor {
  epoch: string;
  position: string;
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decode(text: string): unknown {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(text)) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

export function encodeEventCursor(epoch: string, position: string): string {
  return encode([EVENT_CURSOR_VERSION, epoch, position]);
}

/** The epoch and position in `cursor`, or `undefined` when it is not a cursor this server issued. */
export function decodeEventCursor(cursor: string): DecodedEventCursor | undefined {
  const value = decode(cursor);
  if (!Array.isArray(value) || value.length !== 3 || value[0] !== EVENT_CURSOR_VERSION) return undefined;
  const [, epoch, position] = value;
  if (typeof epoch !== 'string' || typeof position !== 'string') return undefined;
  return { epoch, position };
}

export function encodeListCursor(offset: number): string {
  return encode({ offset });
}

export function decodeListCursor(cursor: string): number | undefined {
  const value = decode(cursor) as { offset?: unknown } | undefined;
  const offset = value?.offset;
  return typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
}
