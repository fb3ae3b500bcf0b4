/** What the client takes of the SDK's client entry, in a module of its own: sdk-load.ts imports it on the first connect. */
export { auth, InsufficientScopeError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
export { TelemetryClient } from './sdk-telemetry.js';
