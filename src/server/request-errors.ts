/**
 * What a client is told when a request fails, decided in one place for every SDK `Server` the
 * package builds (MCPServer's instances and a client proxy's gateway), on every transport and era:
 *
 * - params a schema rejects answer -32602 `Invalid params for <method>: params.uri: expected
 *   string`. The SDK reports them as a zod issue dump, and for most methods as a plain Error
 *   (which it sends as -32603); `ErrorShapingServer` rewrites both at its handler hook;
 * - a user callback (tool, resource, prompt, completion) that throws is a `CallbackError` naming
 *   its target; the client gets that name plus the reason, or only the name with `redactErrors`,
 *   and the full error goes to the server log;
 * - any other unexpected error is -32603 and logged; it never carries a zod dump, and its message
 *   is bounded (or generic with `redactErrors`).
 *
 * A `ProtocolError` a handler or callback throws on purpose passes through unchanged.
 */
import { MastraError } from '@mastra/core/error';
import {
  type Implementation,
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
  type ServerOptions,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpErrorDefinition } from '../errors.js';
import { boundErrorsSent } from './error-echo.js';
import { clip, describeIssues, issuesIn, pathOf } from './issues.js';

/** Longest reason (from an error's message) a client is sent. */
const MAX_REASON = 500;

export interface ErrorReporting {
  /** The `redactErrors` option: clients get generic messages, the log gets the detail. */
  redact: boolean;
  /** Writes one error line to the server log (the implementation names the server). */
  log(message: string): void;
}

/**
 * A user callback threw (MCP_SERVER_CALLBACK_FAILED): `failure` names what failed, without the
 * reason. A class so the error shaping below tells it apart by type.
 */
export class CallbackError extends MastraError {
  constructor(
    readonly failure: string,
    cause: unknown,
    /** The protocol error a client receives, given the message. */
    readonly answer: (message: string) => ProtocolError = (message) =>
      new ProtocolError(ProtocolErrorCode.InternalError, message),
  ) {
    super(mcpErrorDefinition(MCPErrorCode.SERVER_CALLBACK_FAILED, `${failure}: ${reasonOf(cause)}`), cause);
    this.name = 'CallbackError';
  }
}

/** The first ProtocolError in `error`'s cause chain (a tool or callback threw it on purpose). */
export function protocolErrorIn(error: unknown): ProtocolError | undefined {
  let current = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof ProtocolError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Runs a user callback; what it throws (other than a deliberate ProtocolError) becomes a CallbackError. */
export async function runCallback<T>(
  failure: string,
  run: () => T | Promise<T>,
  answer?: (message: string) => ProtocolError,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new CallbackError(failure, error, answer);
  }
}

/** An error's message for a client: a zod dump summarised, anything else bounded. */
function reasonOf(error: unknown): string {
  const found = issuesIn(error);
  if (found) return `${found.prefix}${describeIssues(found.issues)}`;
  return clip(error instanceof Error ? error.message : String(error), MAX_REASON);
}

function detailOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Logs a failed callback in full; returns what the client is told. */
export function failureMessage(reporting: ErrorReporting, failure: string, cause: unknown): string {
  reporting.log(`${failure}: ${detailOf(cause)}`);
  return reporting.redact ? failure : `${failure}: ${reasonOf(cause)}`;
}

const hasCode = (error: unknown): error is { code: number } =>
  Number.isSafeInteger((error as { code?: unknown } | null)?.code);

/** The error a client receives for `error`, thrown by the handler of `method`. */
function shapeError(method: string, error: unknown, reporting: ErrorReporting): unknown {
  if (error instanceof CallbackError)
    return error.answer(failureMessage(reporting, error.failure, error.cause));
  const found = issuesIn(error);
  if (found?.issues.every((issue) => pathOf(issue)[0] === 'params')) {
    return new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params for ${method}: ${describeIssues(found.issues)}`,
    );
  }
  if (hasCode(error)) {
    if (!found) return error;
    const { data } = error as { data?: unknown };
    return new ProtocolError(error.code, `${found.prefix}${describeIssues(found.issues)}`, data);
  }
  reporting.log(`${method} failed: ${detailOf(error)}`);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    reporting.redact ? `Internal error in ${method}` : reasonOf(error),
  );
}

/**
 * A CreateTaskResult (Tasks extension) as the handler returned it: the SDK's tools/call result
 * check adds `content: []` to any result without content, as it knows only the 2025-11-25 nested
 * `task` form as a result of another family.
 */
function withoutContent(result: Result): Result {
  const { content: _content, ...task } = result;
  return task;
}

/** The SDK `Server` with every request handler's errors shaped for the wire (see the module comment). */
export class ErrorShapingServer extends Server {
  constructor(
    info: Implementation,
    options: ServerOptions,
    private readonly reporting: ErrorReporting,
  ) {
    super(info, options);
  }

  /** Every error response this server sends is bounded (error-echo.ts), the SDK's own refusals included. */
  override connect(transport: Transport): Promise<void> {
    return super.connect(boundErrorsSent(transport));
  }

  // The SDK's documented hook around every registered handler, the built-in ones (initialize,
  // logging/setLevel) included: its params validation runs inside `handler`.
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        const result = await wrapped(request, ctx);
        return method === 'tools/call' && result.resultType === 'task' ? withoutContent(result) : result;
      } catch (error) {
        // Read at call time: the SDK constructor registers handlers before `reporting` is set.
        throw shapeError(method, error, this.reporting);
      }
    };
  }
}

/**
 * A params schema for `setRequestHandler(method, { params }, handler)` whose rejection reads as
 * every other method's: the SDK prints it after `Invalid params for <method>: `.
 */
export function requestParams<S extends StandardSchemaV1>(
  schema: S,
): StandardSchemaV1<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mastra-mcp',
      validate: async (value) => {
        const result = await schema['~standard'].validate(value);
        if (!result.issues) return result as StandardSchemaV1.SuccessResult<StandardSchemaV1.InferOutput<S>>;
        return { issues: [{ message: describeIssues([...result.issues], ['params']) }] };
      },
    },
  };
}
