/**
 * The event types a server offers: each normalised once (schemas to JSON Schema plus a
 * validator, the delivery list, the listing entry), then resolved per request. Resolving checks
 * in the order the spec's errors read: unknown event (NotFound), delivery mode not offered
 * (Unsupported), arguments (InvalidParams), the author's `authorize` (Forbidden).
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { EventDeliveryMode, EventDescriptor } from '../../shared/events-wire.js';
import { EMPTY_OBJECT_SCHEMA, type NormalizedSchema, normalizeSchema } from '../tool-schema.js';
import type {
  MCPEventOccurrence,
  WebhookEventType,
  WebhookEventTypes,
  WebhookSubscription,
} from './contracts.js';
import { decodeListCursor, encodeListCursor } from './cursor.js';
import { forbidden, invalidParams, unknownEvent, unsupported } from './errors.js';
import type { MCPEventTypeConfig } from './types.js';

const ALL_MODES: EventDeliveryMode[] = ['poll', 'push', 'webhook'];

export interface EventType extends WebhookEventType {
  name: string;
  config: MCPEventTypeConfig;
  descriptor: EventDescriptor;
  replay: boolean;
  input: NormalizedSchema | undefined;
  payload: NormalizedSchema | undefined;
}

/** A checked subscription (see WebhookSubscription) with the server's full event type. */
export interface ResolvedSubscription extends WebhookSubscription {
  type: EventType;
}

export interface EventTypesOptions {
  webhook: boolean;
  logger: () => IMastraLogger;
}

export class EventTypes implements WebhookEventTypes {
  private readonly types = new Map<string, EventType>();

  constructor(private readonly options: EventTypesOptions) {}

  define(name: string, config: MCPEventTypeConfig): void {
    if (!name) throw mcpError(MCPErrorCode.SERVER_INVALID_EVENT_TYPE, 'an event type needs a name');
    const delivery = [...new Set(config.delivery ?? ALL_MODES)].filter(
      (mode) => mode !== 'webhook' || this.options.webhook,
    );
    if (delivery.length === 0) {
      throw mcpError(MCPErrorCode.SERVER_INVALID_EVENT_TYPE, `event type '${name}' offers no delivery mode`, {
        event: name,
      });
    }
    const input = config.inputSchema === undefined ? undefined : normalizeSchema(config.inputSchema);
    const payload = config.payloadSchema === undefined ? undefined : normalizeSchema(config.payloadSchema);
    const descriptor: EventDescriptor = {
      name,
      ...(config.description !== undefined ? { description: config.description } : {}),
      delivery,
      inputSchema: input?.json ?? EMPTY_OBJECT_SCHEMA,
      payloadSchema: payload?.json ?? { type: 'object' },
      ...(config._meta ? { _meta: config._meta } : {}),
    };
    this.types.set(name, { name, config, descriptor, replay: config.replay ?? true, input, payload });
  }

  remove(name: string): boolean {
    return this.types.delete(name);
  }

  get(name: string): EventType | undefined {
    return this.types.get(name);
  }

  get size(): number {
    return this.types.size;
  }

  descriptors(): EventDescriptor[] {
    return [...this.types.values()].map((type) => type.descriptor);
  }

  /** One `events/list` page; `push` is left out where this endpoint cannot stream. */
  page(cursor: string | undefined, pageSize: number, streaming: boolean) {
    const offset = cursor === undefined ? 0 : decodeListCursor(cursor);
    if (offset === undefined) throw invalidParams('Invalid cursor for events/list');
    const all = this.descriptors();
    const events = all
      .slice(offset, offset + pageSize)
      .map((descriptor) =>
        streaming
          ? descriptor
          : { ...descriptor, delivery: descriptor.delivery.filter((mode) => mode !== 'push') },
      );
    const next = offset + pageSize;
    return {
      events: events.filter((descriptor) => descriptor.delivery.length > 0),
      ...(next < all.length ? { nextCursor: encodeListCursor(next) } : {}),
    };
  }

  /** Checks a subscription request; throws the extension's error for the first check that fails. */
  async resolve(
    name: string,
    rawArgs: Record<string, unknown> | undefined,
    delivery: EventDeliveryMode,
    authInfo: AuthInfo | undefined,
  ): Promise<ResolvedSubscription> {
    const type = this.types.get(name);
    if (!type) throw unknownEvent(name);
    if (!type.descriptor.delivery.includes(delivery)) {
      throw unsupported(`Event '${name}' does not offer ${delivery} delivery`, {
        feature: 'deliveryMode',
        value: delivery,
      });
    }
    let args = rawArgs ?? {};
    if (type.input) {
      const outcome = await type.input.validate(args);
      if ('issues' in outcome) {
        throw invalidParams(`Invalid arguments for event '${name}': ${outcome.issues.join('; ')}`);
      }
      args = (outcome.value ?? {}) as Record<string, unknown>;
    }
    if (type.config.authorize) {
      let allowed = false;
      try {
        allowed = await type.config.authorize({ name, args, authInfo, delivery });
      } catch (error) {
        this.options.logger().warn(`MCP event '${name}': authorize failed: ${describe(error)}`);
      }
      if (!allowed) throw forbidden(`Not allowed to subscribe to event '${name}'`);
    }
    return { type, args, match: this.matcher(type, args) };
  }

  /** Whether an occurrence belongs to a subscription with `args` (the type's `matches`, failures logged as no). */
  matcher(type: WebhookEventType, args: Record<string, unknown>) {
    const matches = type.config.matches;
    if (!matches) return () => true;
    return (occurrence: MCPEventOccurrence) => {
      try {
        return matches(args, occurrence) === true;
      } catch (error) {
        this.options.logger().warn(`MCP event '${type.name}': matches failed: ${describe(error)}`);
        return false;
      }
    };
  }
}

export const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
