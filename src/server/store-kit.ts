/**
 * The one door src/redis/ uses into the server: the seams a store outside src/server/ implements
 * (MCPEventStore, MCPWebhookQueue with its WebhookRegistry, MCPServerEventBus, MCPTaskStore) and
 * the parts it shares with the in-memory versions, so both behave alike: ReadScan (the readAfter
 * walk), WebhookAttempts (one POST of one item), Wakeup (the wait between reads) and describe()
 * (an event type as messages name it). What is not re-exported here stays the server's own.
 */
export type {
  MCPServerBusEvent,
  MCPServerEventBus,
  MCPServerEventBusListener,
  MCPServerEventBusMember,
} from './event-bus.js';
export type {
  MCPEventOccurrence,
  MCPEventStore,
  MCPEventStoreFilter,
  MCPEventStoreReadResult,
  MCPStoredEvent,
  MCPWebhookQueue,
  WebhookDelivery,
  WebhookDeliveryContext,
  WebhookRecord,
  WebhookRefresh,
  WebhookRegistry,
  WebhookReport,
  WebhookSubscription,
} from './events/contracts.js';
export { describe } from './events/event-types.js';
export { ReadScan, type ScanEntry } from './events/read-scan.js';
export { Wakeup } from './events/wakeup.js';
export { type DeliveryItem, WebhookAttempts } from './events/webhook-delivery.js';
export type {
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskStoreListener,
  MCPTaskUpdate,
} from './tasks/types.js';
