/**
 * stdio `subscriptions/listen` requests that follow tasks: a screen between the stdio wire and the
 * SDK's `serveStdio`. A listen request naming tasks reaches the SDK without them (it serves the
 * rest of the filter, and keeps the subscription even when it honours none of it); its
 * acknowledgement gets the followed task ids, and `notifications/tasks` for them go out on the
 * wire until the subscription ends: the client cancels it, the SDK answers it (an error, or the
 * graceful close when the server closes), or the connection closes.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { asError } from '../../errors.js';
import { answeredRequest, cancelledRequest } from '../../shared/message-kind.js';
import { protocolErrorIn } from '../request-errors.js';
import { type TaskListenHost, taskListenRequest, taskNotification, withTaskIds } from '../tasks/listen.js';
import type { MCPStoredTask } from '../tasks/types.js';
import { WireScreen } from './wire-screen.js';

type RequestId = string | number;

export class TaskListenWire extends WireScreen {
  /** Listen requests handed to the SDK, not acknowledged yet: the tasks each will follow. */
  private readonly pending = new Map<RequestId, MCPStoredTask[]>();
  /** Acknowledged listen requests that follow tasks: how to stop. */
  private readonly following = new Map<RequestId, () => void>();

  constructor(
    wire: Transport,
    private readonly host: TaskListenHost,
  ) {
    super(wire);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    for (const [id, tasks] of this.pending) {
      const ack = withTaskIds(
        message,
        id,
        tasks.map((task) => task.taskId),
      );
      if (!ack) continue;
      this.pending.delete(id);
      await this.wire.send(ack as JSONRPCMessage, options);
      const stop = this.host.follow(tasks, (task) => {
        this.wire.send(taskNotification(task, id)).catch((error: unknown) => this.report(error));
      });
      this.following.set(id, stop);
      return;
    }
    const answered = answeredRequest(message);
    if (answered !== undefined) this.stop(answered);
    await this.wire.send(message, options);
  }

  protected receive(
    message: JSONRPCMessage,
    extra: Parameters<NonNullable<Transport['onmessage']>>[1],
  ): void {
    void this.screen(message, extra);
  }

  private async screen(message: JSONRPCMessage, extra: Parameters<NonNullable<Transport['onmessage']>>[1]) {
    let forwarded: unknown = message;
    try {
      const request = taskListenRequest(message);
      if (request) {
        const tasks = await this.host.listenable(request, undefined);
        if (tasks.length > 0) this.pending.set(request.id, tasks);
        forwarded = request.rest;
      }
    } catch (error) {
      const refused = protocolErrorIn(error);
      const id = (message as { id: RequestId }).id;
      const {
        code,
        message: text,
        data,
      } = refused ?? { code: -32603, message: 'Internal error', data: undefined };
      if (!refused) this.report(error);
      await this.wire
        .send({ jsonrpc: '2.0', id, error: { code, message: text, ...(data !== undefined ? { data } : {}) } })
        .catch((failure: unknown) => this.report(failure));
      return;
    }
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) this.stop(cancelled);
    this.onmessage?.(forwarded as JSONRPCMessage, extra);
  }

  private stop(id: RequestId): void {
    this.pending.delete(id);
    this.following.get(id)?.();
    this.following.delete(id);
  }

  protected release(): void {
    for (const id of [...this.pending.keys(), ...this.following.keys()]) this.stop(id);
  }

  private report(error: unknown): void {
    this.onerror?.(asError(error));
  }
}
