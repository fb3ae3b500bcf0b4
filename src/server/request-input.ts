/**
 * How one request's callback (a tool's execute, a prompt's getPromptMessages) asks its client for
 * input, as the instance's profile says (instance-profile.ts): a 2026-07-28 request with state
 * behind it suspends (suspended-calls.ts) and answers `input_required`; a 2025 session sends the
 * request itself on the session (`elicitation/create`, `sampling/createMessage`, `roots/list`);
 * anywhere else nothing can wait for an answer, and the question fails saying so.
 */
import type { InputRequiredResult, Result, Server, ServerContext } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import {
  type Ask,
  declares,
  declaresFormElicitation,
  type InputAnswer,
  InputKeys,
  type InputRequest,
  type InputTarget,
  requestCapabilities,
  undeclared,
} from './input-requests.js';
import type { InstanceProfile } from './instance-profile.js';
import type { SuspendedCalls } from './suspended-calls.js';

/**
 * The client capabilities a question of this request may use: the request's own when it suspends
 * (2026-07-28), the session's from `initialize` when it asks on one, none otherwise.
 */
function callerCapabilities(profile: InstanceProfile, server: Server, ctx: ServerContext): unknown {
  if (profile.suspendsCalls) return requestCapabilities(ctx);
  return profile.asksOnSession ? server.getClientCapabilities() : undefined;
}

/**
 * Whether a form question reaches this caller (a workflow's suspended step asks for its resume
 * data only then): it declared form elicitation, per request or at `initialize`, and its request
 * can wait for the answer.
 */
export function callerElicits(profile: InstanceProfile, server: Server, ctx: ServerContext): boolean {
  return declaresFormElicitation(callerCapabilities(profile, server, ctx));
}

/** Why nothing can wait for an answer here, by kind. */
const UNAVAILABLE = {
  'elicitation/create': [MCPErrorCode.SERVER_ELICITATION_UNAVAILABLE, 'elicitation'],
  'sampling/createMessage': [MCPErrorCode.SERVER_SAMPLING_UNAVAILABLE, 'sampling'],
  'roots/list': [MCPErrorCode.SERVER_ROOTS_UNAVAILABLE, 'listing roots'],
} as const;

/**
 * How a request that does not suspend asks: on its session (keys are checked, as everywhere, but
 * never sent: the session's request is the question itself), or not at all.
 */
function directAsk(profile: InstanceProfile, server: Server, ctx: ServerContext, target: InputTarget): Ask {
  const keys = new InputKeys();
  return async (request, key): Promise<InputAnswer> => {
    if (!profile.asksOnSession) {
      const [code, what] = UNAVAILABLE[request.method];
      throw mcpError(
        code,
        `${what} needs a stateful session and is not available in serverless (stateless) mode`,
      );
    }
    const claimed = keys.claim(request, key, target);
    if (!declares(server.getClientCapabilities(), request)) throw undeclared(request, claimed, target);
    return sendOnSession(request, server, ctx);
  };
}

function sendOnSession(request: InputRequest, server: Server, ctx: ServerContext): Promise<InputAnswer> {
  switch (request.method) {
    case 'elicitation/create':
      return ctx.mcpReq.elicitInput({ ...request.params, mode: 'form' });
    case 'sampling/createMessage':
      return ctx.mcpReq.requestSampling(request.params);
    case 'roots/list':
      return server.listRoots();
  }
}

/**
 * Runs `run` (the callback) with the asking this request's profile gives, and its abort signal:
 * the suspended run's (which outlives the first request) or the request's own.
 */
export function serveAsking<R extends Result>(
  suspended: SuspendedCalls,
  profile: InstanceProfile,
  server: Server,
  ctx: ServerContext,
  target: InputTarget,
  run: (ask: Ask, signal: AbortSignal) => Promise<R>,
): Promise<R | InputRequiredResult> {
  if (profile.suspendsCalls) {
    return suspended.serve(ctx, target, (handle) => run(handle.ask, handle.signal), {
      ownSignal: profile.instancePerRequest,
    });
  }
  return run(directAsk(profile, server, ctx, target), ctx.mcpReq.signal);
}
