/**
 * Reads a body stream as UTF-8 text up to a byte limit without holding more than the limit: the
 * stream is cancelled as soon as it goes over. Used for webhook bodies on both sides (the
 * client's receiver, the server's verification answers).
 */

/** The text, `''` without a body, or `undefined` when the body is longer than `limit` bytes. */
export async function readTextWithin(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<string | undefined> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
