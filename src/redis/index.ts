/**
 * `mastra-mcp/redis`: the Redis-backed stores, bus and queue for servers scaled out over several
 * instances, and the client's Redis OAuth and cursor storage. A subpath of its own so that an app
 * that keeps its state in memory loads none of it. Each class takes a connected node-redis client
 * (the optional peer `redis`), or anything with the same commands; nothing here imports `redis`.
 */
export type { RedisCommandClient } from './command.js';
export { RedisMCPEventCursorStore, type RedisMCPEventCursorStoreOptions } from './cursor-store.js';
export { REDIS_COMMAND_FAILED, REDIS_INVALID_OPTION, REDIS_UNAVAILABLE } from './errors.js';
export {
  RedisMCPServerEventBus,
  type RedisMCPServerEventBusOptions,
  type RedisSubscriberClient,
} from './event-bus.js';
export {
  RedisMCPEventStore,
  type RedisMCPEventStoreOptions,
  type RedisMCPEventStoreSubscriber,
} from './event-store.js';
export type { RedisStoreOptions } from './key-value.js';
export {
  RedisResumabilityEventStore,
  type RedisResumabilityEventStoreOptions,
} from './legacy-event-store.js';
export { RedisOAuthStorage, type RedisOAuthStorageOptions } from './oauth-storage.js';
export { RedisMCPTaskStore, type RedisMCPTaskStoreOptions } from './task-store.js';
export {
  RedisWebhookQueue,
  type RedisWebhookQueueOptions,
  WEBHOOK_ENQUEUE_FAILED,
} from './webhook-queue.js';
