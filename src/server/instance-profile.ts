/**
 * InstanceProfile: what one protocol instance (an SDK `Server` from createProtocolServer) serves.
 * The transport that builds an instance picks its profile; protocol-server.ts then reads one named
 * field per decision (capabilities, request state, elicitation, tasks, events, subscriptions,
 * prompt listings), so each branch there says what it does rather than which era it belongs to.
 * The profiles are constants: instances built for the same kind of traffic share one.
 */

/** The 2025 prompt wire has no `version`: such clients see each prompt name once (prompts.ts). */
interface ServesRevision2025 {
  readonly oneVersionPerPrompt: true;
  readonly servesEvents: false;
}

/** 2026-07-28 requests list every prompt version and may be offered the Events extension. */
interface ServesRevision2026 {
  readonly oneVersionPerPrompt: false;
  readonly servesEvents: true;
  /** An answer may be a stream held open (`events/stream`); false when every answer is JSON. */
  readonly streams: boolean;
}

/**
 * A 2025 client's session: `initialize` once, then requests on it (stdio, legacy SSE, a Streamable
 * HTTP session). The instance lives as long as the session, so a tool's question is an
 * `elicitation/create` request on it and list changes and resource updates reach it.
 */
export interface SessionProfile extends ServesRevision2025 {
  readonly serves: 'session';
  readonly notifies: true;
  readonly suspendsCalls: false;
  readonly asksOnSession: true;
  readonly runsTasks: false;
  readonly acceptsResourceSubscriptions: true;
}

/**
 * 2026-07-28 requests to a server that keeps state between them (the HTTP handler with its listen
 * bus, a 2026-07-28 stdio connection): a tool's question suspends the call behind `input_required`
 * (suspended-calls.ts), tools may run as tasks, updates reach listen streams.
 */
export interface RequestsProfile extends ServesRevision2026 {
  readonly serves: 'requests';
  readonly notifies: true;
  readonly suspendsCalls: true;
  readonly asksOnSession: false;
  readonly runsTasks: true;
  readonly acceptsResourceSubscriptions: false;
  /**
   * Each request has an instance of its own, closed as its exchange ends (HTTP): that close may
   * abort a request's signal after its answer was produced, so a suspended run gets a signal of
   * its own. A stdio connection's instance lives as long as the connection, and the SDK forgets
   * a request once answered: a run keeps its request's signal (one AbortSignal less a call).
   */
  readonly instancePerRequest: boolean;
}

/**
 * 2026-07-28 requests to a serverless deployment: nothing outlives an answer, so nothing is
 * announced, no question can be asked and no task kept; events are served (polled, or streamed
 * when answers may be streams).
 */
export interface ServerlessRequestsProfile extends ServesRevision2026 {
  readonly serves: 'serverless-requests';
  readonly notifies: false;
  readonly suspendsCalls: false;
  readonly asksOnSession: false;
  readonly runsTasks: false;
  readonly acceptsResourceSubscriptions: true;
}

/** One 2025 request without a session (stateless or serverless Streamable HTTP): it ends with its answer. */
export interface SessionlessRequestProfile extends ServesRevision2025 {
  readonly serves: 'sessionless-request';
  readonly notifies: false;
  readonly suspendsCalls: false;
  readonly asksOnSession: false;
  readonly runsTasks: false;
  readonly acceptsResourceSubscriptions: true;
}

/**
 * What a protocol instance serves. Its fields, one per decision:
 * - `notifies`: something can reach the client after an answer, so `listChanged` and resource
 *   `subscribe` are declared;
 * - `suspendsCalls`: a tool's question suspends its call behind `input_required`, so the retry's
 *   request state is verified and whether the caller elicits is read from each request;
 * - `asksOnSession`: a tool's question is an `elicitation/create` on the caller's session
 *   (neither this nor `suspendsCalls`: a question fails, there is nowhere to wait for an answer);
 * - `runsTasks`: `tasks/*` attached and tools listed with their task support (with the `tasks` option);
 * - `servesEvents` (and then `streams`): `events/*` attached (with the `events` option);
 * - `acceptsResourceSubscriptions`: `resources/subscribe` and `/unsubscribe` answered (stateful
 *   2026-07-28 clients follow resources through `subscriptions/listen` instead);
 * - `oneVersionPerPrompt`: `prompts/list` shows each name once.
 */
export type InstanceProfile =
  | SessionProfile
  | RequestsProfile
  | ServerlessRequestsProfile
  | SessionlessRequestProfile;

export const SESSION: SessionProfile = {
  serves: 'session',
  notifies: true,
  suspendsCalls: false,
  asksOnSession: true,
  runsTasks: false,
  servesEvents: false,
  acceptsResourceSubscriptions: true,
  oneVersionPerPrompt: true,
};

export const REQUESTS: RequestsProfile = {
  serves: 'requests',
  notifies: true,
  suspendsCalls: true,
  asksOnSession: false,
  runsTasks: true,
  servesEvents: true,
  streams: true,
  acceptsResourceSubscriptions: false,
  oneVersionPerPrompt: false,
  instancePerRequest: true,
};

const STDIO_REQUESTS: RequestsProfile = { ...REQUESTS, instancePerRequest: false };

function serverless(streams: boolean): ServerlessRequestsProfile {
  return {
    serves: 'serverless-requests',
    notifies: false,
    suspendsCalls: false,
    asksOnSession: false,
    runsTasks: false,
    servesEvents: true,
    streams,
    acceptsResourceSubscriptions: true,
    oneVersionPerPrompt: false,
  };
}

const SERVERLESS_STREAMED = serverless(true);
const SERVERLESS_JSON = serverless(false);

/** Serverless 2026-07-28 requests, answered as SSE streams (`serverlessStreaming`) or as JSON. */
export function serverlessRequests(streams: boolean): ServerlessRequestsProfile {
  return streams ? SERVERLESS_STREAMED : SERVERLESS_JSON;
}

export const SESSIONLESS_REQUEST: SessionlessRequestProfile = {
  serves: 'sessionless-request',
  notifies: false,
  suspendsCalls: false,
  asksOnSession: false,
  runsTasks: false,
  servesEvents: false,
  acceptsResourceSubscriptions: true,
  oneVersionPerPrompt: true,
};

/** A stdio connection's profile, by the era the SDK read from its first message. */
export function stdioProfile(era: 'legacy' | 'modern'): SessionProfile | RequestsProfile {
  return era === 'modern' ? STDIO_REQUESTS : SESSION;
}
