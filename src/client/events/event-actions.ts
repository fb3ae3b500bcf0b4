/**
 * The `events` property of MCPClient: `list()`, `subscribe()` and `handleWebhook()` over the
 * configured servers, plus the live subscriptions `closeEvents()` ends on `disconnect()`.
 *
 * subscribe() tries the delivery plan in order: a webhook refusal (no authenticated caller,
 * subscription cap, unreachable callback, ...) on a subscription that did not force webhook falls
 * back to the next mode and tells the first onError handler (MCP_EVENTS_WEBHOOK_UNAVAILABLE);
 * every other failure rejects with MCP_CLIENT_SUBSCRIBE_EVENT_FAILED and the reason as cause.
 */

import { MCPErrorCode, mcpError } from '../../errors.js';
import type { ConnectionLookup } from '../actions.js';
import { checkSubscribeOptions } from '../options.js';
import { deliveryPlan } from './delivery-plan.js';
import { isWebhookRefusal, outerError, protocolCode } from './errors.js';
import { listEventTypes } from './list.js';
import { PollSource } from './poll-source.js';
import { PushSource } from './push-source.js';
import { resolveOptions, type SourceContext } from './source-context.js';
import { EventSubscription } from './subscription.js';
import type {
  MCPClientWebhookOptions,
  MCPEventDeliveryMode,
  MCPEventDescriptor,
  MCPEventSubscribeOptions,
  MCPEventSubscription,
} from './types.js';
import { WebhookHub } from './webhook-hub.js';
import { handleWebhook } from './webhook-receiver.js';

export interface MCPClientEvents {
  /** Every event type the server offers (all pages). */
  list(serverName: string): Promise<MCPEventDescriptor[]>;
  /** Starts a subscription; resolves once the server confirmed it. */
  subscribe(
    serverName: string,
    eventName: string,
    args?: Record<string, unknown>,
    options?: MCPEventSubscribeOptions,
  ): Promise<MCPEventSubscription>;
  /** Handles one webhook delivery and returns the response to send back. */
  handleWebhook(request: Request): Promise<Response>;
}

const closers = new WeakMap<MCPClientEvents, () => Promise<void>>();

/** Ends every live subscription of `events` normally (MCPClient.disconnect()). */
export async function closeEvents(events: MCPClientEvents): Promise<void> {
  await closers.get(events)?.();
}

async function startSource(
  mode: MCPEventDeliveryMode,
  context: SourceContext,
  hub: WebhookHub,
): Promise<void> {
  const { subscription } = context;
  if (mode === 'webhook') {
    const source = await hub.join(context);
    if (subscription.ended) {
      await source.stop('disconnect');
      throw new Error('the subscription ended while it was being registered');
    }
    subscription.attach(source);
    return;
  }
  const source = mode === 'push' ? new PushSource(context) : new PollSource(context);
  subscription.attach(source);
  await source.start();
}

export function eventActions(
  lookup: ConnectionLookup,
  webhook: MCPClientWebhookOptions | undefined,
): MCPClientEvents {
  const hub = new WebhookHub(webhook);
  const live = new Set<EventSubscription>();

  const subscribe = async (
    serverName: string,
    eventName: string,
    args: Record<string, unknown> = {},
    options: MCPEventSubscribeOptions = {},
  ): Promise<MCPEventSubscription> => {
    checkSubscribeOptions(options);
    const connection = lookup.get(serverName);
    const { signal } = options;
    const resolved = resolveOptions(options, connection);
    const onAbort = () => void subscription.cancel();
    const subscription: EventSubscription = new EventSubscription({
      server: serverName,
      event: eventName,
      cursor: resolved.cursor,
      dedupWindow: resolved.dedupWindow,
      maxBufferedEvents: resolved.maxBufferedEvents,
      log: (message) => connection.log('warning', message),
      onEnded: (ended) => {
        live.delete(ended);
        signal?.removeEventListener('abort', onAbort);
      },
    });
    live.add(subscription);
    const context: SourceContext = {
      connection,
      event: eventName,
      args,
      options: resolved,
      subscription,
    };
    try {
      if (signal?.aborted) throw signal.reason ?? new Error('the signal was aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      const descriptor = (await listEventTypes(connection)).find((event) => event.name === eventName);
      const plan = deliveryPlan(serverName, eventName, descriptor, options.delivery, hub.configured);
      for (const [index, mode] of plan.entries()) {
        try {
          await startSource(mode, context, hub);
          return subscription;
        } catch (error) {
          const fallback = plan[index + 1];
          if (mode !== 'webhook' || options.delivery || !fallback || !isWebhookRefusal(error)) throw error;
          subscription.hold(
            mcpError(
              MCPErrorCode.EVENTS_WEBHOOK_UNAVAILABLE,
              `MCP server '${serverName}' refused webhook delivery of event '${eventName}' (${error instanceof Error ? error.message : String(error)}); using ${fallback} delivery`,
              { server: serverName, event: eventName, code: protocolCode(error), fallback },
              error,
            ),
          );
        }
      }
      throw new Error('no delivery mode could be started');
    } catch (error) {
      await subscription.close('disconnect');
      throw outerError(
        MCPErrorCode.CLIENT_SUBSCRIBE_EVENT_FAILED,
        `subscribing to event '${eventName}'`,
        serverName,
        error,
        {
          event: eventName,
        },
      );
    }
  };

  const events: MCPClientEvents = {
    list: async (serverName) => {
      const connection = lookup.get(serverName);
      try {
        return await listEventTypes(connection);
      } catch (error) {
        throw outerError(MCPErrorCode.CLIENT_LIST_EVENTS_FAILED, 'listing events', serverName, error);
      }
    },
    subscribe,
    handleWebhook: (request) => handleWebhook(hub, request),
  };
  closers.set(events, async () => {
    await Promise.allSettled([...live].map((subscription) => subscription.close('disconnect')));
  });
  return events;
}
