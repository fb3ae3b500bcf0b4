/**
 * What one MCP request says about itself, read the conventions' way: the span name
 * `{mcp.method.name} {target}` (the tool or prompt name; never a resource URI, which would make
 * names unbounded), the attributes its params give, and how it ended (`error.type`).
 */
import { REQUEST_TIMEOUT, timedOut } from '../request-timeout.js';
import type { MCPAttributes } from './attributes.js';

type Params = Record<string, unknown> | undefined;

const nameIn = (params: Params): string | undefined =>
  typeof params?.name === 'string' ? params.name : undefined;

const RESOURCE_METHODS = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/resources/updated',
]);

/** The span name, and `attributes` with those a request's method and params give added. */
export function describeRequest(
  method: string,
  params: Params,
  attributes: MCPAttributes = {},
): { name: string; attributes: MCPAttributes } {
  attributes['mcp.method.name'] = method;
  let target: string | undefined;
  if (method === 'tools/call') {
    target = nameIn(params);
    if (target !== undefined) attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get') {
    target = nameIn(params);
    if (target !== undefined) attributes['gen_ai.prompt.name'] = target;
  } else if (RESOURCE_METHODS.has(method) && typeof params?.uri === 'string') {
    attributes['mcp.resource.uri'] = params.uri;
  }
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/** How an operation failed: `error.type`, the JSON-RPC code when there is one, and the status message. */
export interface Failure {
  type: string;
  code?: string;
  message?: string;
}

/** A result that is a failure: a `CallToolResult` with `isError` (`tool_error`). */
export function failureInResult(result: unknown): Failure | undefined {
  return (result as { isError?: unknown } | null)?.isError === true ? { type: 'tool_error' } : undefined;
}

/**
 * A thrown error as the conventions classify it: a JSON-RPC error by its code (a handler's plain
 * error is answered as -32603, Internal error), an SDK timeout as `timeout` and a request its
 * caller aborted, which the SDK gives the same code, as `cancelled` (request-timeout.ts),
 * another SDK error by its code in lower case, anything else `_OTHER`.
 */
export function failureOf(error: unknown, { answeredAsInternal }: { answeredAsInternal: boolean }): Failure {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : undefined;
  const described = (failure: Failure): Failure =>
    text === undefined ? failure : { ...failure, message: text };
  if (typeof code === 'number') return described({ type: String(code), code: String(code) });
  if (code === REQUEST_TIMEOUT) return described({ type: timedOut(error) ? 'timeout' : 'cancelled' });
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return described({ type: code.toLowerCase() });
  if (answeredAsInternal) return described({ type: '-32603', code: '-32603' });
  return described({ type: '_OTHER' });
}

/** Streams that last until their caller closes them: closing one is how it ends, not a failure. */
const STREAM_METHODS = new Set(['events/stream', 'subscriptions/listen']);

/** How a request of `method` that ended with `error` failed; undefined for a stream its caller closed. */
export function requestFailure(
  method: unknown,
  error: unknown,
  options: { answeredAsInternal: boolean },
): Failure | undefined {
  const failure = failureOf(error, options);
  return failure.type === 'cancelled' && STREAM_METHODS.has(method as string) ? undefined : failure;
}

/** `value` as JSON of at most `maxBytes` UTF-8 bytes, cut with `…` when longer. */
export function capturedJson(value: unknown, maxBytes: number): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (json === undefined) return undefined;
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.length <= maxBytes) return json;
  // Cut on a character boundary: the decoder drops a partial trailing character.
  const cut = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, Math.max(0, maxBytes - 3)));
  return `${cut.replace(/\uFFFD$/, '')}…`;
}
