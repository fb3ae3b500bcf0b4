/**
 * What kind of JSON-RPC message a transport wrapper is passing on, by plain property checks.
 * The SDK's `isJSONRPC*` guards parse the message with zod, which costs microseconds per message
 * (more when the guess is wrong); a wrapper that sees every message of a connection only needs
 * the shape the SDK has already checked or will check.
 */
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';

export function isRequestMessage(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/** The request a response (result or error) answers, or undefined for any other message. */
export function answeredRequest(message: JSONRPCMessage): RequestId | undefined {
  return 'method' in message ? undefined : (message as { id?: RequestId }).id;
}

/** The request a peer's `notifications/cancelled` names, or undefined for any other message. */
export function cancelledRequest(message: JSONRPCMessage): RequestId | undefined {
  const cancelled = message as { method?: string; params?: { requestId?: RequestId } };
  return cancelled.method === 'notifications/cancelled' ? cancelled.params?.requestId : undefined;
}
