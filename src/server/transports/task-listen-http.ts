/**
 * Streamable HTTP `subscriptions/listen` streams that follow tasks. The SDK serves the stream for
 * the rest of the filter; this puts the followed task ids into its acknowledgement and writes
 * `notifications/tasks` between its frames. The SDK closes a stream whose filter it honoured none
 * of right after the acknowledgement: that close is held back while tasks are followed, and sent
 * (with the SDK's own `_meta`) when the stream ends because the server closes.
 */
import { asError } from '../../errors.js';
import { SUBSCRIPTION_ID_META_KEY } from '../../shared/events-wire.js';
import { type TaskListenHost, taskNotification, withTaskIds } from '../tasks/listen.js';
import type { MCPStoredTask } from '../tasks/types.js';

/** As the SDK's own listen streams: a comment line every 15 s keeps idle proxies from closing them. */
const KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();

type RequestId = string | number;

/** The JSON of an SSE frame's data lines, or undefined for a comment. */
function dataOf(frame: string): string | undefined {
  const lines = frame.split('\n').filter((line) => line.startsWith('data:'));
  if (lines.length === 0) return undefined;
  return lines.map((line) => line.slice(line.startsWith('data: ') ? 6 : 5)).join('\n');
}

function answers(message: unknown, id: RequestId): 'result' | 'error' | undefined {
  const response = message as { id?: unknown; result?: unknown; error?: unknown };
  if (response?.id !== id) return undefined;
  return response.error !== undefined ? 'error' : response.result !== undefined ? 'result' : undefined;
}

export class TaskListenStreams {
  /** Each open stream's graceful end, for `closeAll()`. */
  private readonly open = new Set<() => void>();

  constructor(
    readonly host: TaskListenHost,
    private readonly onerror: (error: Error) => void,
  ) {}

  /** The SDK's answer to the rest of listen request `id`, following `tasks` besides; any other answer as it is. */
  merge(response: Response, id: RequestId, tasks: MCPStoredTask[]): Response {
    const sdk = response.body;
    if (!sdk || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
    const reader = sdk.getReader();
    const taskIds = tasks.map((task) => task.taskId);
    let controller: ReadableStreamDefaultController<Uint8Array>;
    let acknowledged = false;
    let ended = false;
    let closeFrame = `event: message\ndata: ${JSON.stringify({
      jsonrpc: '2.0',
      id,
      result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
    })}`;
    let unfollow: (() => void) | undefined;
    let keepalive: NodeJS.Timeout | undefined;

    const write = (frame: string) => {
      if (ended) return;
      try {
        controller.enqueue(encoder.encode(`${frame}\n\n`));
      } catch (error) {
        this.onerror(asError(error));
      }
    };
    const writeMessage = (message: unknown) => write(`event: message\ndata: ${JSON.stringify(message)}`);
    const stop = () => {
      if (ended) return;
      ended = true;
      unfollow?.();
      clearInterval(keepalive);
      this.open.delete(end);
      void reader.cancel().catch(() => {});
    };
    const finish = () => {
      stop();
      try {
        controller.close();
      } catch {
        // Already closed by the client going away.
      }
    };
    const end = () => {
      write(closeFrame);
      finish();
    };
    const frame = (text: string) => {
      const data = dataOf(text);
      let message: unknown;
      try {
        message = data === undefined ? undefined : JSON.parse(data);
      } catch {
        message = undefined;
      }
      if (!acknowledged) {
        const ack = withTaskIds(message, id, taskIds);
        if (ack) {
          acknowledged = true;
          writeMessage(ack);
          unfollow = this.host.follow(tasks, (task) => writeMessage(taskNotification(task, id)));
          return;
        }
      }
      const answer = answers(message, id);
      if (answer === 'result') {
        closeFrame = text;
        return;
      }
      write(text);
      if (answer === 'error') finish();
    };
    const pump = async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffered += decoder.decode(value, { stream: true });
          for (let at = buffered.indexOf('\n\n'); at >= 0; at = buffered.indexOf('\n\n')) {
            frame(buffered.slice(0, at));
            buffered = buffered.slice(at + 2);
          }
        }
      } catch {
        // Cancelled: this stream ended.
      }
      // The SDK's part is over; without an acknowledgement there is nothing to follow.
      if (!acknowledged) finish();
    };

    const body = new ReadableStream<Uint8Array>({
      start: (streamController) => {
        controller = streamController;
        this.open.add(end);
        keepalive = setInterval(() => write(': keepalive'), KEEPALIVE_MS);
        keepalive.unref();
        void pump();
      },
      cancel: stop,
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** Ends every stream with the listen result, the graceful close (the server is closing). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}
