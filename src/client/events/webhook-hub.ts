/**
 * The client's webhook side: the shared server-side subscriptions (one per server, event name
 * and canonical arguments), their index by the server-assigned id (`X-MCP-Subscription-Id`), and
 * the secrets a delivery with an id not known yet may be signed with (the configured
 * `webhook.secret`, and those of subscriptions whose `events/subscribe` is still in flight).
 *
 * It also holds, per server, the webhook-ids of handled deliveries (for replays), capped by
 * `webhook.maxRememberedDeliveries`.
 *
 * Invariants: a registration being unsubscribed is never joined (a new one waits for the
 * unsubscribe); webhook state lives in this process only.
 */

import { MCPErrorCode, mcpError } from '../../errors.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { decodeWebhookSecret } from '../../shared/events-wire.js';
import { DeliveryIds } from './dedup.js';
import type { SourceContext } from './source-context.js';
import type { DeliverySource } from './subscription.js';
import type { MCPClientWebhookOptions } from './types.js';
import { type RegistrationHost, WebhookRegistration } from './webhook-registration.js';

/** Five minutes of 333 deliveries a second per server, in about 12 MiB of heap (measured). */
export const DEFAULT_MAX_REMEMBERED_DELIVERIES = 100_000;

export class WebhookHub implements RegistrationHost {
  private readonly registrations = new Map<string, WebhookRegistration>();
  /** Per server name: one server's flood of deliveries cannot refuse another's. */
  private readonly handled = new Map<string, DeliveryIds>();
  private readonly byId = new Map<string, Set<WebhookRegistration>>();
  private readonly inFlight = new Set<WebhookRegistration>();
  /** Unsubscribes in flight by key: a new registration for the key waits for them. */
  private readonly leaving = new Map<string, Promise<void>>();

  constructor(private readonly options: MCPClientWebhookOptions | undefined) {
    if (!options) return;
    let valid = typeof options.url === 'string';
    try {
      new URL(options.url);
    } catch {
      valid = false;
    }
    if (!valid) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_WEBHOOK_CONFIG,
        "MCPClient option 'webhook.url' must be an absolute URL",
        {
          field: 'webhook.url',
        },
      );
    }
    if (options.secret !== undefined && !decodeWebhookSecret(options.secret)) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_WEBHOOK_CONFIG,
        "MCPClient option 'webhook.secret' must be whsec_ followed by base64 of 24 to 64 bytes",
        { field: 'webhook.secret' },
      );
    }
    const max = options.maxRememberedDeliveries;
    if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) {
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_WEBHOOK_CONFIG,
        "MCPClient option 'webhook.maxRememberedDeliveries' must be a positive integer",
        { field: 'webhook.maxRememberedDeliveries' },
      );
    }
  }

  get configured(): boolean {
    return this.options !== undefined;
  }

  get settings(): MCPClientWebhookOptions {
    if (!this.options)
      throw mcpError(MCPErrorCode.EVENTS_WEBHOOK_NOT_CONFIGURED, 'webhook settings are not configured');
    return this.options;
  }

  /**
   * Joins the shared subscription for the context's server, event and arguments, registering it
   * first when there is none. Resolves once the server confirmed it.
   */
  async join(context: SourceContext): Promise<DeliverySource> {
    const key = canonicalJson([context.connection.name, context.event, context.args]);
    let registration = this.registrations.get(key);
    let created = false;
    while (!registration && this.leaving.has(key)) {
      await this.leaving.get(key);
      registration = this.registrations.get(key);
    }
    if (!registration) {
      registration = new WebhookRegistration(this, key, context);
      this.registrations.set(key, registration);
      created = true;
    }
    await registration.ready();
    if (registration.closed) throw new Error('the shared webhook subscription ended while joining it');
    const { subscription } = context;
    const source = registration.join(subscription);
    if (created && registration.truncatedAtStart) subscription.gap(registration.latestCursor);
    else subscription.advance(registration.latestCursor);
    return source;
  }

  get maxRememberedDeliveries(): number {
    return this.options?.maxRememberedDeliveries ?? DEFAULT_MAX_REMEMBERED_DELIVERIES;
  }

  deliveryIds(server: string): DeliveryIds {
    let ids = this.handled.get(server);
    if (!ids) {
      ids = new DeliveryIds(this.maxRememberedDeliveries);
      this.handled.set(server, ids);
    }
    return ids;
  }

  /** The registrations the server gave `id` (usually one). */
  withId(id: string): WebhookRegistration[] {
    return [...(this.byId.get(id) ?? [])];
  }

  /** Secrets a delivery for a subscription id not known yet may verify with. */
  unroutedSecrets(): string[] {
    const secrets = new Set<string>();
    if (this.options?.secret) secrets.add(this.options.secret);
    for (const registration of this.inFlight) secrets.add(registration.secret);
    return [...secrets];
  }

  indexed(registration: WebhookRegistration, previousId: string | undefined): void {
    if (previousId !== undefined) this.unindex(registration, previousId);
    if (registration.id === undefined) return;
    let set = this.byId.get(registration.id);
    if (!set) {
      set = new Set();
      this.byId.set(registration.id, set);
    }
    set.add(registration);
  }

  forget(registration: WebhookRegistration): void {
    if (this.registrations.get(registration.key) === registration)
      this.registrations.delete(registration.key);
    if (registration.id !== undefined) this.unindex(registration, registration.id);
    this.inFlight.delete(registration);
  }

  unsubscribing(registration: WebhookRegistration, done: Promise<void>): void {
    const { key } = registration;
    const settled = done.finally(() => {
      if (this.leaving.get(key) === settled) this.leaving.delete(key);
    });
    this.leaving.set(key, settled);
  }

  pending(registration: WebhookRegistration, inFlight: boolean): void {
    if (inFlight) this.inFlight.add(registration);
    else this.inFlight.delete(registration);
  }

  private unindex(registration: WebhookRegistration, id: string): void {
    const set = this.byId.get(id);
    set?.delete(registration);
    if (set?.size === 0) this.byId.delete(id);
  }
}
