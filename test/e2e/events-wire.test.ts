import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/shared/canonical-json.js';
import {
  cursorOf,
  decodeWebhookSecret,
  EventOccurrenceSchema,
  generateWebhookSecret,
  WebhookControlBodySchema,
} from '../../src/shared/events-wire.js';

describe('events wire', () => {
  it('accepts whsec_ secrets of 24 to 64 bytes of padded base64 and nothing else', () => {
    const bytes = (n: number) => `whsec_${Buffer.alloc(n, 7).toString('base64')}`;
    expect(decodeWebhookSecret(bytes(24))?.length).toBe(24);
    expect(decodeWebhookSecret(bytes(64))?.length).toBe(64);
    for (const bad of [
      bytes(23),
      bytes(65),
      'whsec_',
      'whsec_!!!!',
      `sk_${Buffer.alloc(32).toString('base64')}`,
    ]) {
      expect(decodeWebhookSecret(bad), bad).toBeUndefined();
    }
    const generated = generateWebhookSecret();
    expect(decodeWebhookSecret(generated)?.length).toBe(32);
    expect(generateWebhookSecret()).not.toBe(generated);
    for (const bytes of [16, 65, 24.5]) {
      expect(() => generateWebhookSecret(bytes)).toThrow(
        expect.objectContaining({
          id: 'MCP_EVENTS_INVALID_WEBHOOK_SECRET_SIZE',
          category: 'USER',
          message: `generateWebhookSecret(${bytes}): a webhook secret has 24 to 64 bytes`,
        }),
      );
    }
  });

  it('canonical JSON ignores key order at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('treats an absent cursor as null, keeps unknown members, and tells control bodies apart', () => {
    expect(cursorOf(undefined)).toBeNull();
    const occurrence = EventOccurrenceSchema.parse({
      eventId: 'e',
      name: 'n',
      timestamp: 't',
      data: {},
      extra: 1,
    });
    expect(occurrence).toMatchObject({ extra: 1 });
    expect(cursorOf(occurrence.cursor)).toBeNull();
    expect(WebhookControlBodySchema.safeParse({ type: 'gap' }).success).toBe(true);
    expect(WebhookControlBodySchema.safeParse({ type: 'verification' }).success).toBe(false);
    expect(WebhookControlBodySchema.safeParse({ eventId: 'e' }).success).toBe(false);
  });
});
