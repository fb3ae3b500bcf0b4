/**
 * Resource subscriptions on a 2025-era connection, which has no `subscriptions/listen`:
 * `resources/subscribe` and `resources/unsubscribe` per URI, kept in line with the URIs the
 * connection wants, and the server's `notifications/resources/updated` (routed by sdk-client.ts).
 * A subscription belongs to the session it was made on, so each SDK client (a reconnect makes a
 * new one) is tracked apart, and a new session subscribes every wanted URI again.
 */
import type { Client } from '@modelcontextprotocol/client';

/** The connection the subscriptions are made for (ServerConnection). */
export interface SubscriptionOwner {
  readonly subscribedUris: ReadonlySet<string>;
  readonly timeout: number;
  requestMeta(): Record<string, unknown> | undefined;
}

export class LegacyResourceSubscriptions {
  /** The URIs each session has subscribed to. */
  private readonly sessions = new WeakMap<Client, Set<string>>();

  /**
   * Subscribes `client` to each wanted URI it lacks and unsubscribes it from the others; a server
   * that does not declare `resources.subscribe` is not asked. The first refusal rejects.
   */
  async sync(client: Client, owner: SubscriptionOwner): Promise<undefined> {
    if (!client.getServerCapabilities()?.resources?.subscribe) return undefined;
    const wanted = owner.subscribedUris;
    const meta = owner.requestMeta();
    const options = { timeout: owner.timeout };
    let held = this.sessions.get(client);
    if (!held) {
      held = new Set();
      this.sessions.set(client, held);
    }
    const params = (uri: string) => ({ uri, ...(meta ? { _meta: meta } : {}) });
    for (const uri of wanted) {
      if (held.has(uri)) continue;
      await client.subscribeResource(params(uri), options);
      held.add(uri);
    }
    for (const uri of [...held]) {
      if (wanted.has(uri)) continue;
      held.delete(uri);
      await client.unsubscribeResource(params(uri), options);
    }
    return undefined;
  }
}
