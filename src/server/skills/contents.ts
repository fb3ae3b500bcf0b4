/**
 * A skill file's bytes as `resources/read` sends them, and the check that bytes are the ones an
 * entry published. Text is sent as `text` only when UTF-8 decoding loses nothing (a BOM kept), so
 * a host that encodes it again gets the bytes the digest covers; anything else is a base64 `blob`.
 */
import { createHash } from 'node:crypto';
import type { ReadResourceResult } from '@modelcontextprotocol/server';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Whether `bytes` are what was published as `digest` and `size`. */
export function matches(bytes: Uint8Array, published: { digest: string; size: number }): boolean {
  return bytes.byteLength === published.size && digestOf(bytes) === published.digest;
}

export function contentsOf(uri: string, mimeType: string, bytes: Uint8Array): ReadResourceResult {
  let text: string | undefined;
  try {
    text = decoder.decode(bytes);
  } catch {
    text = undefined;
  }
  return {
    contents: [
      text === undefined
        ? {
            uri,
            mimeType,
            blob: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
          }
        : { uri, mimeType, text },
    ],
  };
}
