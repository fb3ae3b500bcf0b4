/**
 * Which delivery modes a subscription tries, in order: the forced one alone, or webhook (only
 * with client webhook settings), push, poll, each only when the event type offers it. An event
 * the server did not list is tried anyway, so the server's own answer (NotFound) is what the
 * caller sees.
 */

import { MCPErrorCode, mcpError } from '../../errors.js';
import type { MCPEventDeliveryMode, MCPEventDescriptor } from './types.js';

const PREFERENCE: MCPEventDeliveryMode[] = ['webhook', 'push', 'poll'];

export function deliveryPlan(
  server: string,
  event: string,
  descriptor: MCPEventDescriptor | undefined,
  forced: MCPEventDeliveryMode | undefined,
  webhookConfigured: boolean,
): MCPEventDeliveryMode[] {
  const offered = descriptor?.delivery ?? PREFERENCE;
  if (forced === 'webhook' && !webhookConfigured) {
    throw mcpError(
      MCPErrorCode.EVENTS_WEBHOOK_NOT_CONFIGURED,
      `MCP server '${server}': event '${event}': webhook delivery needs the MCPClient 'webhook' option`,
      { server, event, delivery: forced },
    );
  }
  if (forced) {
    if (offered.includes(forced)) return [forced];
    throw mcpError(
      MCPErrorCode.EVENTS_NO_COMPATIBLE_DELIVERY_MODE,
      `MCP server '${server}': event '${event}' does not offer ${forced} delivery (it offers ${offered.join(', ')})`,
      { server, event, delivery: forced, offered: offered.join(',') },
    );
  }
  const plan = PREFERENCE.filter(
    (mode) => offered.includes(mode) && (mode !== 'webhook' || webhookConfigured),
  );
  if (plan.length > 0) return plan;
  throw mcpError(
    MCPErrorCode.EVENTS_NO_COMPATIBLE_DELIVERY_MODE,
    `MCP server '${server}': event '${event}' offers only ${offered.join(', ')} delivery${offered.includes('webhook') ? ', and the MCPClient has no webhook settings' : ''}`,
    { server, event, offered: offered.join(',') },
  );
}
