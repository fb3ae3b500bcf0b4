/**
 * MCPEventsSignalProvider: MCP server events (SEP-3415) delivered to agent threads as
 * notifications, on @mastra/core's SignalProvider.
 *
 * - Which threads are subscribed lives in the base class's registry, keyed by
 *   `MCPEventsSignalProvider.key()` as the external resource id; each key has at most one MCP
 *   subscription (an `Entry`), shared by every thread subscribed to it.
 * - An entry's loop notifies every thread of an occurrence (`this.notify()`, which is the
 *   agent's `sendNotificationSignal()`), then stores the subscription's cursor: at least once.
 * - The last thread leaving cancels the subscription, waits for the loop, then deletes the cursor;
 *   `stop()` cancels and waits but keeps cursors. A subscription that ends any other way
 *   (terminated, failed, client disconnected) unsubscribes its threads and sends each a
 *   high-priority `mcp-event-subscription-ended` notification; its cursor is kept.
 */
import { MastraError } from '@mastra/core/error';
import type { NotificationPriority } from '@mastra/core/notifications';
import { SignalProvider } from '@mastra/core/signals';
import { MCPErrorCode } from '../../errors.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import {
  anyObject,
  arrayOf,
  assertOptions,
  boolean,
  either,
  fn,
  type OptionsOf,
  object,
  required,
  string,
} from '../../shared/options.js';
import type { MCPClientCore } from '../client.js';
import { messageOf } from '../errors.js';
import { SUBSCRIBE_OPTIONS } from '../options.js';
import { InMemoryMCPEventCursorStore, type MCPEventCursorStore } from './cursor-store.js';
import {
  type EndReason,
  endedNotification,
  eventNotification,
  type SubscriptionIdentity,
} from './signal-notifications.js';
import { type EventSelection, type EventThread, eventTools } from './signal-tools.js';
import type { MCPEventSubscribeOptions, MCPEventSubscription } from './types.js';

/** A thread: the resource that owns it and its id. */
export type MCPEventsThread = EventThread;

/** One MCP subscription: server, event and arguments (any key order). */
export type MCPEventsSubscriptionInput = EventSelection;

export interface MCPEventsErrorInfo {
  server: string;
  event: string;
  key: string;
}

export interface MCPEventsSignalProviderOptions {
  /** The client used to list and subscribe to events. */
  client: Pick<MCPClientCore, 'events'>;
  /** Provider id, used as the notification source. Default 'mcp-events'. */
  id?: string;
  /** Display name. Default 'MCP Events'. */
  name?: string;
  /** Resume cursor per subscription key. Default: an {@link InMemoryMCPEventCursorStore}. */
  cursorStore?: MCPEventCursorStore;
  /** Options for every MCP subscription (the cursor comes from `cursorStore`). */
  subscribeOptions?: Omit<MCPEventSubscribeOptions, 'cursor' | 'signal'>;
  /** Priority of event notifications. Default 'medium'. */
  priority?: NotificationPriority;
  /** Sets `coalesceKey: 'mcp-events:<key>'` so pending notifications of one subscription merge. Default false. */
  coalesce?: boolean;
  /** Gives the agent mcp_events_list, mcp_events_subscribe and mcp_events_unsubscribe. Default false. */
  tools?: boolean | { servers: string[] };
  /** Delivery, cursor store and subscription errors. Default: a console warning. */
  onError?: (error: unknown, info: MCPEventsErrorInfo) => void;
}

const { cursor: _cursor, signal: _signal, ...SUBSCRIBE_OPTIONS_SET } = SUBSCRIBE_OPTIONS;

const OPTIONS = object(
  {
    client: required(anyObject),
    id: string,
    name: string,
    cursorStore: anyObject,
    subscribeOptions: object(SUBSCRIBE_OPTIONS_SET),
    priority: string,
    coalesce: boolean,
    tools: either(boolean, object({ servers: required(arrayOf(string)) })),
    onError: fn,
  } satisfies OptionsOf<MCPEventsSignalProviderOptions>,
  'MCPEventsSignalProvider',
);

type EntryState = 'starting' | 'live' | 'released' | 'stopped' | 'ended';

interface Entry extends SubscriptionIdentity {
  state: EntryState;
  /** Resolves once the server confirmed the subscription; rejects when it refused. */
  ready: Promise<MCPEventSubscription>;
  loop?: Promise<void>;
}

const target = ({ resourceId, threadId }: EventThread): EventThread => ({ resourceId, threadId });

/** @experimental SEP-3415 is a draft; this API may change in any release. */
export class MCPEventsSignalProvider extends SignalProvider<string> {
  readonly id: string;
  override readonly name: string;
  private readonly options: MCPEventsSignalProviderOptions;
  private readonly cursorStore: MCPEventCursorStore;
  private readonly entries = new Map<string, Entry>();
  /** Releases in progress: a new subscription with the same key waits for the cursor deletion. */
  private readonly closing = new Map<string, Promise<void>>();
  private tools: ReturnType<typeof eventTools> | undefined;

  constructor(options: MCPEventsSignalProviderOptions) {
    assertOptions(OPTIONS, options, {
      where: 'MCPEventsSignalProvider',
      label: 'the MCPEventsSignalProvider options',
      code: MCPErrorCode.CLIENT_INVALID_OPTION,
    });
    super();
    this.options = options;
    this.id = options.id ?? 'mcp-events';
    this.name = options.name ?? 'MCP Events';
    this.cursorStore = options.cursorStore ?? new InMemoryMCPEventCursorStore();
  }

  /** The subscription key the cursor store uses; independent of the arguments' key order. */
  static key({ server, event, args }: MCPEventsSubscriptionInput): string {
    return canonicalJson([server, event, args ?? {}]);
  }

  /**
   * Subscribes a thread; resolves once the MCP subscription is confirmed (a new one resumes from
   * the stored cursor). If the server refuses, the thread is not subscribed and this rejects.
   */
  async subscribeThread(thread: MCPEventsThread, selection: MCPEventsSubscriptionInput): Promise<void> {
    const identity = this.identity(selection);
    const member = target(thread);
    const already = this.hasSubscription(member, identity.key);
    const entry = this.entries.get(identity.key) ?? this.open(identity);
    if (!already) {
      this.subscribe(member, identity.key, {
        server: identity.server,
        event: identity.event,
        args: identity.args,
      });
    }
    try {
      await entry.ready;
    } catch (error) {
      if (!already) this.unsubscribe(member, identity.key);
      throw error;
    }
  }

  /**
   * Unsubscribes a thread; resolves to true when it was subscribed. The last thread leaving
   * cancels the MCP subscription and deletes its stored cursor.
   */
  async unsubscribeThread(thread: MCPEventsThread, selection: MCPEventsSubscriptionInput): Promise<boolean> {
    const key = MCPEventsSignalProvider.key(selection);
    if (!this.unsubscribe(target(thread), key)) return false;
    const entry = this.entries.get(key);
    if (entry && this.getSubscriptionsForResource(key).length === 0) await this.release(entry);
    return true;
  }

  /** Cancels every MCP subscription and keeps the stored cursors; threads are forgotten. */
  override stop(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    super.stop();
    for (const entry of entries) entry.state = 'stopped';
    return Promise.all(entries.map((entry) => this.halt(entry))).then(() => undefined);
  }

  override getTools(): Record<string, unknown> {
    const { tools } = this.options;
    if (!tools || (tools !== true && tools.servers.length === 0)) return {};
    this.tools ??= eventTools(
      {
        list: (server) => this.options.client.events.list(server),
        subscribeThread: (thread, selection) => this.subscribeThread(thread, selection),
        unsubscribeThread: (thread, selection) => this.unsubscribeThread(thread, selection),
        subscriptionsOf: (thread, server) =>
          this.getSubscriptionsForThread(target(thread))
            .filter((subscription) => subscription.metadata.server === server)
            .map(({ metadata }) => ({
              event: metadata.event as string,
              args: metadata.args as Record<string, unknown>,
            })),
      },
      tools === true ? undefined : tools.servers,
    );
    return this.tools;
  }

  // ---- one MCP subscription --------------------------------------------------------------

  private identity({ server, event, args }: MCPEventsSubscriptionInput): SubscriptionIdentity {
    return { server, event, args: args ?? {}, key: MCPEventsSignalProvider.key({ server, event, args }) };
  }

  private open(identity: SubscriptionIdentity): Entry {
    const entry = { ...identity, state: 'starting' } as Entry;
    this.entries.set(identity.key, entry);
    entry.ready = this.connectEntry(entry);
    entry.ready.catch(() => {});
    return entry;
  }

  private async connectEntry(entry: Entry): Promise<MCPEventSubscription> {
    const { server, event, args, key } = entry;
    try {
      await this.closing.get(key);
      const cursor = (await this.cursorStore.get(key)) ?? null;
      const subscription = await this.options.client.events.subscribe(server, event, args, {
        ...this.options.subscribeOptions,
        cursor,
      });
      // Released or stopped while the server was answering: whoever did it cancels.
      if (entry.state !== 'starting') return subscription;
      entry.state = 'live';
      subscription.onError((error) => this.report(error, entry));
      entry.loop = this.deliver(entry, subscription);
      return subscription;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      if (entry.state === 'starting') entry.state = 'ended';
      throw error;
    }
  }

  private async deliver(entry: Entry, subscription: MCPEventSubscription): Promise<void> {
    const { priority = 'medium', coalesce = false } = this.options;
    let reason: EndReason = { message: 'the MCP client disconnected' };
    let failure: unknown;
    try {
      for await (const occurrence of subscription) {
        const notification = eventNotification(this.id, entry, occurrence, subscription.truncated, {
          priority,
          coalesce,
        });
        for (const member of this.getSubscriptionsForResource(entry.key)) {
          try {
            await this.notify(notification, target(member));
          } catch (error) {
            this.report(error, entry);
          }
        }
        // At least once: the cursor moves only after the threads were notified.
        if (entry.state === 'released' || subscription.cursor === null) continue;
        try {
          await this.cursorStore.set(entry.key, subscription.cursor);
        } catch (error) {
          this.report(error, entry);
        }
      }
    } catch (error) {
      failure = error;
      reason = { message: messageOf(error), id: error instanceof MastraError ? error.id : undefined };
    }
    if (entry.state !== 'live') return;
    await this.ended(entry, reason, failure);
  }

  /** The subscription ended on its own: threads are unsubscribed and told; the cursor is kept. */
  private async ended(entry: Entry, reason: EndReason, failure: unknown): Promise<void> {
    entry.state = 'ended';
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    const members = this.getSubscriptionsForResource(entry.key).map(target);
    for (const member of members) this.unsubscribe(member, entry.key);
    if (failure !== undefined) this.report(failure, entry);
    const notification = endedNotification(this.id, entry, reason);
    for (const member of members) {
      try {
        await this.notify(notification, member);
      } catch (error) {
        this.report(error, entry);
      }
    }
  }

  /** The last thread left: cancel, let the loop finish, then delete the cursor. */
  private async release(entry: Entry): Promise<void> {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    entry.state = 'released';
    const done = (async () => {
      await this.halt(entry);
      try {
        await this.cursorStore.delete(entry.key);
      } catch (error) {
        this.report(error, entry);
      }
    })();
    this.closing.set(entry.key, done);
    try {
      await done;
    } finally {
      if (this.closing.get(entry.key) === done) this.closing.delete(entry.key);
    }
  }

  /** Cancels the MCP subscription once it exists and waits for its loop. */
  private async halt(entry: Entry): Promise<void> {
    const subscription = await entry.ready.catch(() => undefined);
    await subscription?.cancel();
    await entry.loop;
  }

  private report(error: unknown, { server, event, key }: SubscriptionIdentity): void {
    const { onError } = this.options;
    if (!onError) {
      console.warn(`[${this.id}] MCP server '${server}', event '${event}': ${messageOf(error)}`);
      return;
    }
    try {
      onError(error, { server, event, key });
    } catch (thrown) {
      console.warn(`[${this.id}] onError threw: ${messageOf(thrown)}`);
    }
  }
}
