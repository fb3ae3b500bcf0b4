/** Reading a raw SSE response in tests: its messages as they arrive, keep-alive comments skipped. */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

export interface SseEvent {
  id: string | undefined;
  message: JSONRPCMessage & { method?: string; params?: Record<string, unknown>; result?: unknown };
}

/** The messages of an SSE response as they arrive (keep-alive comments and priming events skipped). */
export async function* sseEvents(response: Response): AsyncGenerator<SseEvent> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const id = lines
          .find((line) => line.startsWith('id:'))
          ?.slice(3)
          .trim();
        const data = lines
          .find((line) => line.startsWith('data:'))
          ?.slice(5)
          .trim();
        if (data) yield { id: id || undefined, message: JSON.parse(data) };
      }
    }
  } finally {
    reader.releaseLock();
  }
}
