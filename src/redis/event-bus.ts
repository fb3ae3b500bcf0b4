/**
 * `MCPServerEventBus` over Redis pub/sub: one channel per server id (`<channelPrefix><serverId>`)
 * carrying `{"origin": <member id>, "event": {...}}`. Every MCPServer instance of that id joins as
 * a member with its own origin; a message goes to each local member except its publisher, so an
 * instance never hears itself. Messages are validated on receipt: a malformed one is reported to
 * the members' `onError` (the server logs it) and dropped.
 *
 * Pub/sub is at most once: a message published while an instance is disconnected from Redis is
 * lost for that instance (node-redis resubscribes by itself when it reconnects). That is fine for
 * list_changed and resource updates, which are hints clients answer by reading again.
 *
 * Redis needs a dedicated connection for subscribing (RESP2 subscribe mode): pass the client that
 * publishes as `client` and a second connected one, e.g. `client.duplicate()`, as `subscriber`.
 * The bus never opens or closes either; one bus can serve every MCPServer of a process.
 */
import { randomUUID } from 'node:crypto';
import { isSpecType, type LoggingMessageNotification } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { asError, MCPErrorCode, mcpError } from '../errors.js';
import type {
  MCPServerBusEvent,
  MCPServerEventBus,
  MCPServerEventBusListener,
  MCPServerEventBusMember,
} from '../server/store-kit.js';
import { DEFAULT_REDIS_TIMEOUT_MS, type RedisCommandClient, runCommand, withDeadline } from './command.js';
import { positiveOption, type RedisOperation } from './errors.js';

type MessageListener = (message: string, channel: string) => unknown;

/** The subscribing connection (node-redis: `client.duplicate()`, connected). */
export interface RedisSubscriberClient {
  readonly isReady: boolean;
  subscribe(channel: string, listener: MessageListener): Promise<void>;
  unsubscribe(channel: string, listener: MessageListener): Promise<void>;
}

export interface RedisMCPServerEventBusOptions {
  /** Publishes; may be shared with other stores. */
  client: RedisCommandClient;
  /** Subscribes; used for nothing else once subscribed. */
  subscriber: RedisSubscriberClient;
  /** Default `mastra-mcp:notifications:`. */
  channelPrefix?: string;
  /** How long a publish (or the unsubscribe at close) may wait for Redis (default 2000 ms). */
  timeoutMs?: number;
}

const STORE = 'RedisMCPServerEventBus';

const envelopeSchema = z.object({
  origin: z.string().min(1),
  event: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('tools_list_changed') }),
    z.object({ kind: z.literal('prompts_list_changed') }),
    z.object({ kind: z.literal('resources_list_changed') }),
    z.object({ kind: z.literal('resource_updated'), uri: z.string().min(1) }),
    z.object({
      kind: z.literal('logging_message'),
      params: z.custom<LoggingMessageNotification['params']>(isSpecType.LoggingMessageNotificationParams, {
        message: 'not valid logging message params',
      }),
    }),
  ]),
});

interface Member {
  origin: string;
  listener: MCPServerEventBusListener;
}

interface Channel {
  members: Set<Member>;
  dispatch: MessageListener;
}

export class RedisMCPServerEventBus implements MCPServerEventBus {
  readonly channelPrefix: string;
  private readonly client: RedisCommandClient;
  private readonly subscriber: RedisSubscriberClient;
  private readonly timeoutMs: number;
  private readonly channels = new Map<string, Channel>();

  constructor(options: RedisMCPServerEventBusOptions) {
    this.client = options.client;
    this.subscriber = options.subscriber;
    this.channelPrefix = options.channelPrefix ?? 'mastra-mcp:notifications:';
    this.timeoutMs = positiveOption(STORE, 'timeoutMs', options.timeoutMs) ?? DEFAULT_REDIS_TIMEOUT_MS;
  }

  join(serverId: string, listener: MCPServerEventBusListener): MCPServerEventBusMember {
    const name = this.channelPrefix + serverId;
    const channel = this.channels.get(name) ?? this.open(name);
    const member: Member = { origin: randomUUID(), listener };
    channel.members.add(member);
    return {
      publish: async (event: MCPServerBusEvent) => {
        const message = JSON.stringify({ origin: member.origin, event });
        await runCommand(
          this.client,
          ['PUBLISH', name, message],
          this.subject('publish', name),
          this.timeoutMs,
        );
      },
      leave: async () => {
        if (!channel.members.delete(member) || channel.members.size > 0) return;
        this.channels.delete(name);
        await withDeadline(
          () => this.subscriber.unsubscribe(name, channel.dispatch),
          this.subscriber,
          this.subject('unsubscribe', name),
          this.timeoutMs,
        );
      },
    };
  }

  /** Subscribes once per channel; node-redis queues the SUBSCRIBE until it is connected and repeats it after every reconnect. */
  private open(name: string): Channel {
    const members = new Set<Member>();
    const channel: Channel = { members, dispatch: (message) => this.dispatch(name, members, message) };
    this.channels.set(name, channel);
    this.subscriber.subscribe(name, channel.dispatch).catch((cause: unknown) => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      const failed = mcpError(
        MCPErrorCode.REDIS_COMMAND_FAILED,
        `${STORE}: subscribe to '${name}' failed (${reason}); this instance will not hear other instances`,
        { store: STORE, operation: 'subscribe', key: name },
        cause,
      );
      for (const member of members) member.listener.onError(failed);
    });
    return channel;
  }

  private dispatch(name: string, members: Set<Member>, message: string): void {
    let envelope: z.infer<typeof envelopeSchema>;
    try {
      envelope = envelopeSchema.parse(JSON.parse(message));
    } catch (error) {
      const reason = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
      const dropped = mcpError(
        MCPErrorCode.REDIS_MALFORMED_MESSAGE,
        `${STORE}: dropped a malformed message on '${name}': ${reason}`,
        { store: STORE, key: name },
        error,
      );
      for (const member of members) member.listener.onError(dropped);
      return;
    }
    for (const member of members) {
      if (member.origin === envelope.origin) continue;
      try {
        member.listener.deliver(envelope.event);
      } catch (error) {
        member.listener.onError(asError(error));
      }
    }
  }

  private subject(operation: string, channel: string): RedisOperation {
    return { store: STORE, operation, key: channel, keyPrefix: this.channelPrefix };
  }
}
