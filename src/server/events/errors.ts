/**
 * The extension's JSON-RPC errors as thrown `ProtocolError`s (the SDK sends them as they are),
 * each with the typed `data` the spec gives it. Messages name the event, argument or URL at
 * fault but never echo secrets or endpoint responses.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  type CallbackEndpointErrorData,
  EVENTS_ERROR_CODES,
  type EventsErrorObject,
  type NotFoundErrorData,
  type ResourceExhaustedErrorData,
  type UnsupportedErrorData,
  type WebhookErrorCategory,
} from '../../shared/events-wire.js';

export const invalidParams = (message: string) =>
  new ProtocolError(EVENTS_ERROR_CODES.InvalidParams, message);

export const notFound = (message: string, data: NotFoundErrorData) =>
  new ProtocolError(EVENTS_ERROR_CODES.NotFound, message, data);

export const unknownEvent = (name: string) => notFound(`Unknown event '${name}'`, { kind: 'event' });

export const forbidden = (message: string) => new ProtocolError(EVENTS_ERROR_CODES.Forbidden, message);

export const resourceExhausted = (message: string, data: ResourceExhaustedErrorData) =>
  new ProtocolError(EVENTS_ERROR_CODES.ResourceExhausted, message, data);

export const unsupported = (message: string, data: UnsupportedErrorData) =>
  new ProtocolError(EVENTS_ERROR_CODES.Unsupported, message, data);

export const callbackEndpointError = (reason: WebhookErrorCategory) =>
  new ProtocolError(EVENTS_ERROR_CODES.CallbackEndpointError, `Callback endpoint failed: ${reason}`, {
    reason,
  } satisfies CallbackEndpointErrorData);

export const methodNotFound = (method: string) =>
  new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${method}`);

/** The `error` object of a `terminated` notification or control body. */
export function errorObject(error: ProtocolError): EventsErrorObject {
  return {
    code: error.code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
}

/** Why a subscription ends when the server closes (it no longer exists there). */
export const serverClosing = () =>
  notFound('The server is shutting down', {
    kind: 'subscription',
    reason: 'server_closed',
  } as NotFoundErrorData);

/** Why a subscription ends when its event type is removed. */
export const eventRemoved = (name: string) => notFound(`Event '${name}' was removed`, { kind: 'event' });
