/**
 * Reading a raw SSE response in tests: its messages as they arrive, keep-alive comments skipped;
 * a `subscriptions/listen` stream read message by message with a deadline.
 */
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

/** The messages of one open listen stream, read one at a time with a deadline. */
export class ListenStream {
  private readonly events: AsyncGenerator<SseEvent>;
  constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.events = sseEvents(response);
  }

  /** Sends the request `init(signal)` builds and reads its answer; `close()` aborts it. */
  static async open(url: URL | string, init: (signal: AbortSignal) => RequestInit): Promise<ListenStream> {
    const abort = new AbortController();
    return new ListenStream(await fetch(url, init(abort.signal)), abort);
  }

  async next(what: string, timeoutMs = 10_000): Promise<SseEvent['message']> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    });
    try {
      const event = await Promise.race([this.events.next(), timeout]);
      if (event.done) throw new Error(`the stream ended before ${what}`);
      return event.value.message;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The next `notifications/tasks` for `taskId` whose status is `status`. */
  async task(taskId: string, status: string): Promise<Record<string, unknown>> {
    for (;;) {
      const message = await this.next(`task ${taskId} ${status}`);
      const params = message.params as Record<string, unknown> | undefined;
      if (message.method === 'notifications/tasks' && params?.taskId === taskId && params.status === status)
        return params;
    }
  }

  close(): void {
    this.abort.abort();
  }
}
