/**
 * W3C Trace Context as MCP carries it in `_meta` (`traceparent`, `tracestate`, `baggage`), shared by
 * client and server: one parser, one formatter, and the one shape of span links both sides record.
 *
 * Received values are untrusted: anything malformed is dropped (never an error), `tracestate` and
 * `baggage` only count next to a valid `traceparent`, and each is bounded in length. Mastra spans
 * have no native links, so a link is recorded in the span's metadata as
 * `metadata.links: [{ traceId, spanId, kind }]`, where `kind` says which end of the MCP edge the
 * linked span is: `mcp.client` (the caller's span, on the server's request span) or `mcp.server`
 * (the server's request span, on the client's tool-call span).
 */
// Both SDK packages export the keys; the package's one entry point loads both anyway.
import { BAGGAGE_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server';

export interface MCPTraceContext {
  traceparent: string;
  tracestate?: string;
  baggage?: string;
}

/** The span a `traceparent` names. */
export interface SpanRef {
  traceId: string;
  spanId: string;
}

export type SpanLinkKind = 'mcp.client' | 'mcp.server';

/** One entry of a span's `metadata.links`. */
export interface SpanLink extends SpanRef {
  kind: SpanLinkKind;
}

/** The W3C recommended minimum a vendor propagates; longer values are dropped. */
const MAX_TRACESTATE_LENGTH = 512;
/** The W3C Baggage limit (8192 bytes; the allowed characters are single-byte). */
const MAX_BAGGAGE_LENGTH = 8192;
/** Printable ASCII only: both headers are defined over it. */
const HEADER_TEXT = /^[\x20-\x7e]+$/;
/**
 * version-traceId-spanId-flags; a future version (not 00, never ff) may append fields after a
 * dash, which are ignored as the W3C parsing rules ask.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-[\x20-\x7e]*)?$/;
const ZERO = /^0+$/;

function isHex(value: unknown, length: number): value is string {
  return (
    typeof value === 'string' && value.length === length && /^[0-9a-f]+$/.test(value) && !ZERO.test(value)
  );
}

/** The span a W3C `traceparent` names, or undefined when the value is not a valid one. */
export function parseTraceparent(value: unknown): SpanRef | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, spanId, rest] = match as unknown as [string, string, string, string, string?];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ZERO.test(traceId) || ZERO.test(spanId)) return undefined;
  return { traceId, spanId };
}

/** The `traceparent` naming a span (sampled), or undefined for ids that are not W3C-shaped. */
export function formatTraceparent(span: { traceId?: unknown; spanId?: unknown }): string | undefined {
  if (!isHex(span.traceId, 32) || !isHex(span.spanId, 16)) return undefined;
  return `00-${span.traceId}-${span.spanId}-01`;
}

function boundedHeader(value: unknown, maxLength: number): string | undefined {
  return typeof value === 'string' && value.length <= maxLength && HEADER_TEXT.test(value)
    ? value
    : undefined;
}

/** The valid trace context a request's `_meta` carries, as received; undefined without a valid traceparent. */
export function receivedTraceContext(meta: Record<string, unknown> | undefined): MCPTraceContext | undefined {
  const traceparent = meta?.[TRACEPARENT_META_KEY];
  if (!parseTraceparent(traceparent)) return undefined;
  const context: MCPTraceContext = { traceparent: traceparent as string };
  const tracestate = boundedHeader(meta?.[TRACESTATE_META_KEY], MAX_TRACESTATE_LENGTH);
  const baggage = boundedHeader(meta?.[BAGGAGE_META_KEY], MAX_BAGGAGE_LENGTH);
  if (tracestate) context.tracestate = tracestate;
  if (baggage) context.baggage = baggage;
  return context;
}

/** The span a result's `_meta.traceparent` names (the server span that handled the request). */
export function repliedSpan(meta: unknown): SpanRef | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  return parseTraceparent((meta as Record<string, unknown>)[TRACEPARENT_META_KEY]);
}

/** The parts of a Mastra span linking needs; a no-op or foreign span may lack `update`. */
interface LinkableSpan {
  metadata?: Record<string, unknown> | undefined;
  update?: (options: { metadata: Record<string, unknown> }) => void;
}

/** Appends a link to `span.metadata.links` (kept alongside links already recorded). */
export function addSpanLink(span: LinkableSpan | undefined, link: SpanLink): void {
  if (typeof span?.update !== 'function') return;
  const existing = span.metadata?.links;
  const links = Array.isArray(existing) ? existing : [];
  span.update({ metadata: { links: [...links, link] } });
}
