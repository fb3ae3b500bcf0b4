/**
 * SEP-2243 parameter headers on 2026-07-28 Streamable HTTP. A tool may mark input properties with
 * `x-mcp-header: 'Region'`; a client then repeats the argument as `Mcp-Param-Region`, so a load
 * balancer or gateway can route on it without reading the body. The tool runs on the body, so the
 * two must agree: a `tools/call` whose header is missing, differs from the argument, carries
 * characters a header value may not, or holds a bad Base64 value is refused with HTTP 400 and
 * -32020 (HeaderMismatch) before any tool runs. Pure: the endpoint gives it the parsed body, the
 * request headers and a lookup of a tool's published input schema.
 */
import { PROTOCOL_VERSION_META_KEY, ProtocolError } from '@modelcontextprotocol/server';
import { clip, quoted } from '../issues.js';

/** HeaderMismatch: the revision's code for headers that disagree with the body (the SDK's `ProtocolErrorCode` has none). */
export const HEADER_MISMATCH = -32020;

/**
 * Revisions whose `tools/call` carries `Mcp-Param-*` headers and that the SDK's handler serves. A
 * request naming another is left to that handler, which answers -32022 (unsupported version).
 */
const HEADER_REVISIONS = new Set(['2026-07-28']);

const PARAM_PREFIX = 'Mcp-Param-';
/** RFC 9110 `token`: what an `x-mcp-header` must be; a tool declaring anything else is invalid and clients drop it. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 field value after the OWS is trimmed: visible ASCII, space and tab. Anything else needs Base64. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A decimal an integer argument may be sent as: `42` and `42.0` both mean 42 (the revision's SHOULD). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** One `x-mcp-header` property: where its argument sits and the header that repeats it. */
interface ParamHeader {
  path: readonly string[];
  header: string;
  numeric: boolean;
}

/** Looks up the input schema a tool is published with; undefined for an unknown tool. */
export type InputSchemaOf = (tool: string) => unknown;

const declarations = new WeakMap<object, readonly ParamHeader[]>();

/**
 * The refusal of a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers do not match its
 * arguments, or undefined (any other request, an unknown tool, a tool without `x-mcp-header`).
 */
export function paramHeaderRefusal(
  body: unknown,
  headers: Headers,
  inputSchemaOf: InputSchemaOf,
): ProtocolError | undefined {
  const call = toolsCall(body);
  if (!call) return undefined;
  for (const param of paramHeaders(inputSchemaOf(call.name))) {
    const problem = mismatch(param, valueAt(call.arguments, param.path), headers.get(param.header));
    if (problem) {
      return new ProtocolError(
        HEADER_MISMATCH,
        `Header mismatch in tools/call ${quoted(call.name)}: ${problem}`,
        {
          tool: clip(call.name),
          header: param.header,
          argument: argumentName(param),
        },
      );
    }
  }
  return undefined;
}

/** The name and arguments of a `tools/call` on a revision with parameter headers. */
function toolsCall(body: unknown): { name: string; arguments: unknown } | undefined {
  const { method, params } = (body ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
  const meta = params._meta as Record<string, unknown> | undefined;
  const revision = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof revision !== 'string' || !HEADER_REVISIONS.has(revision)) return undefined;
  return typeof params.name === 'string' ? { name: params.name, arguments: params.arguments } : undefined;
}

/**
 * The `x-mcp-header` properties of a published input schema, reached through `properties` alone
 * (the only places the revision allows; clients drop a tool marked anywhere else). Computed once
 * per schema: the registry keeps a tool's definition until the tool changes.
 */
function paramHeaders(inputSchema: unknown): readonly ParamHeader[] {
  if (typeof inputSchema !== 'object' || inputSchema === null) return [];
  let found = declarations.get(inputSchema);
  if (!found) {
    found = collect(inputSchema, []);
    declarations.set(inputSchema, found);
  }
  return found;
}

function collect(schema: object, path: string[]): ParamHeader[] {
  const { 'x-mcp-header': name, type, properties } = schema as Record<string, unknown>;
  const found: ParamHeader[] = [];
  if (path.length > 0 && typeof name === 'string' && TOKEN.test(name)) {
    found.push({ path, header: `${PARAM_PREFIX}${name}`, numeric: type === 'integer' || type === 'number' });
  }
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, child] of Object.entries(properties)) {
      if (typeof child === 'object' && child !== null) found.push(...collect(child, [...path, key]));
    }
  }
  return found;
}

/** What is wrong with one parameter header, said so the client knows what to send instead. */
function mismatch(param: ParamHeader, value: unknown, sent: string | null): string | undefined {
  const argument = argumentName(param);
  const expected = headerText(value);
  if (sent === null) {
    return expected === undefined
      ? undefined
      : `${argument} is ${quoted(expected)} but header ${param.header} is missing; send the header with the same value (the tool's inputSchema marks it with x-mcp-header)`;
  }
  if (!FIELD_VALUE.test(sent)) {
    return `header ${param.header} holds characters a header value may not (control or non-ASCII characters); send such a value Base64-encoded, as ${SENTINEL_START}…${SENTINEL_END}`;
  }
  const decoded = decodeParamValue(sent);
  if (decoded === undefined) {
    return `header ${param.header} is not valid Base64 (${quoted(sent)}); send the UTF-8 of ${argument} as padded standard Base64 between ${SENTINEL_START} and ${SENTINEL_END}`;
  }
  if (expected === undefined) {
    const state =
      value === undefined ? 'absent' : value === null ? 'null' : 'no string, boolean or safe integer';
    return `header ${param.header} is ${quoted(decoded)} but ${argument} is ${state}; send the header only when the argument has a value`;
  }
  const same =
    param.numeric && typeof value === 'number' && DECIMAL.test(decoded)
      ? Number(decoded) === value
      : decoded === expected;
  return same
    ? undefined
    : `header ${param.header} is ${quoted(decoded)} but ${argument} is ${quoted(expected)}; send the same value`;
}

function argumentName(param: ParamHeader): string {
  return `arguments.${param.path.join('.')}`;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * An argument as its header carries it (before any Base64): strings as they are, booleans and
 * safe integers or finite numbers in decimal. Anything else (null, absent, an object, an unsafe
 * integer) has no header, and a client sends none.
 */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
}

/**
 * A header value as sent: `=?base64?…?=` is the UTF-8 of canonical, padded standard Base64
 * (undefined when it is not); any other value is literal. Web APIs only: `server.fetch` runs on
 * Workers, Deno and Bun too.
 */
function decodeParamValue(sent: string): string | undefined {
  const wrapped =
    sent.length >= SENTINEL_START.length + SENTINEL_END.length &&
    sent.startsWith(SENTINEL_START) &&
    sent.endsWith(SENTINEL_END);
  if (!wrapped) return sent;
  const encoded = sent.slice(SENTINEL_START.length, sent.length - SENTINEL_END.length);
  if (!BASE64.test(encoded)) return undefined;
  const binary = atob(encoded);
  // Unused low bits set (`SGVsbG9=` for `SGVsbG8=`): decodable, yet not the encoding of anything.
  if (btoa(binary) !== encoded) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
