/**
 * Input requests: what a tool or prompt asks the client that sent its request while it runs (an
 * elicitation, a sampling request, a roots listing). Each way of asking (a 2026-07-28 suspended
 * call, a task, a 2025 session: suspended-call.ts, tasks/task-run.ts, request-input.ts) reads the
 * kind's facts here: its key prefix, the client capability it needs, and how it appears inside an
 * `input_required` result or a task's `inputRequests`. A kind is added here, in one place.
 *
 * Keys name a request's entry in `inputRequests` and are unique over a call (over a task's life):
 * a key the tool gives is refused when it was used before in the call, a generated one
 * (`<prefix>-<n>`) skips every key in use.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequestFormParams,
  type ElicitResult,
  inputRequired,
  type ListRootsResult,
  MissingRequiredClientCapabilityError,
  type ServerContext,
  type InputRequest as WireInputRequest,
} from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';

/** The request whose callback asks: its method, and the tool or prompt it names. */
export interface InputTarget {
  readonly method: 'tools/call' | 'prompts/get';
  readonly name: string;
}

const TARGET_WORDS: Record<InputTarget['method'], string> = { 'tools/call': 'Tool', 'prompts/get': 'Prompt' };

/** `Tool 'x'` / `Prompt 'x'`: how messages name what asked. */
export function targetLabel(target: InputTarget): string {
  return `${TARGET_WORDS[target.method]} '${target.name}'`;
}

/** The word the target's own error data is keyed by (`{ tool: 'x' }`, `{ prompt: 'x' }`). */
export function targetKind(target: InputTarget): 'tool' | 'prompt' {
  return target.method === 'tools/call' ? 'tool' : 'prompt';
}

/** One question, by the method the protocol gives it. */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestFormParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list' };

/** The client's answer to an {@link InputRequest}, checked (input-answers.ts). */
export type InputAnswer = ElicitResult | CreateMessageResult | CreateMessageResultWithTools | ListRootsResult;

/** Asks the client `request` under `key` (the tool's own name for it; a generated one without). */
export type Ask = (request: InputRequest, key?: string) => Promise<InputAnswer>;

/** The default key prefix of each kind: `elicitation-1`, `sampling-1`, `roots-1`. */
const KEY_PREFIXES: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The client capability `request` needs, as `-32021`'s `data.requiredCapabilities` names it. */
export function requiredCapabilities(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case 'elicitation/create':
      return { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return request.params.tools || request.params.toolChoice
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * Whether client capabilities (a 2026-07-28 request's own, or a 2025 client's from `initialize`)
 * let the server ask `request`. A bare `elicitation: {}` counts as form (the pre-mode meaning, as
 * the SDK reads it); sampling with tools needs `sampling.tools`.
 */
export function declares(capabilities: unknown, request: InputRequest): boolean {
  if (!isObject(capabilities)) return false;
  const declared = capabilities[Object.keys(requiredCapabilities(request))[0] as string];
  if (!isObject(declared)) return false;
  if (request.method === 'elicitation/create') return 'form' in declared || !('url' in declared);
  if (request.method === 'sampling/createMessage' && (request.params.tools || request.params.toolChoice))
    return isObject(declared.tools);
  return true;
}

/** Whether the capabilities let the server ask a form question (a workflow's resume data). */
export function declaresFormElicitation(capabilities: unknown): boolean {
  return declares(capabilities, { method: 'elicitation/create', params: FORM_PROBE });
}

const FORM_PROBE: ElicitRequestFormParams = {
  message: '',
  requestedSchema: { type: 'object', properties: {} },
};

/** The client capabilities a 2026-07-28 request declares in its `_meta` envelope. */
export function requestCapabilities(ctx: ServerContext): unknown {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY];
}

/**
 * The `-32021` a question gets when its client did not declare what it needs: thrown to the
 * tool (which may go on without the answer), and the caller's answer when the tool lets it escape.
 */
export function undeclared(request: InputRequest, key: string, target: InputTarget): Error {
  const requiredCapabilitiesOf = requiredCapabilities(request);
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: requiredCapabilitiesOf },
    `Cannot request input '${key}' (${request.method}): the request's client capabilities do not ` +
      `declare the required capability (${targetKind(target)} '${target.name}' asked for input; ` +
      `declare ${Object.keys(requiredCapabilitiesOf)[0]})`,
  );
}

/** `request` as an entry of `inputRequests` (an `input_required` result, a task's state). */
export function wireInputRequest(request: InputRequest): WireInputRequest {
  switch (request.method) {
    case 'elicitation/create':
      return inputRequired.elicit(request.params);
    case 'sampling/createMessage':
      return inputRequired.createMessage(request.params);
    case 'roots/list':
      return inputRequired.listRoots();
  }
}

/** A short description of `request` for a task's status message: an elicitation's own message. */
export function describeRequest(request: InputRequest): string {
  return request.method === 'elicitation/create' ? request.params.message : `Waiting for ${request.method}`;
}

/**
 * What a question nobody answered in time (or that a closing server drops) resolves with: an
 * elicitation is cancelled, as the protocol words it; sampling and roots have no such answer, so
 * their request rejects.
 */
export function unanswered(
  request: InputRequest,
  key: string,
  target: InputTarget,
  why: string,
): { answer: ElicitResult } | { error: Error } {
  if (request.method === 'elicitation/create') return { answer: { action: 'cancel' } };
  return {
    error: mcpError(
      MCPErrorCode.SERVER_INPUT_REQUEST_UNANSWERED,
      `${targetLabel(target)}: input request '${key}' (${request.method}) was not answered: ${why}`,
      { key, method: request.method },
    ),
  };
}

/** The keys of one call's input requests (or one task's): unique over its life. */
export class InputKeys {
  private readonly used = new Set<string>();
  private readonly issued = new Map<string, number>();

  /** `prefix` starts every key (a task continued on another instance asks under keys of its own). */
  constructor(private readonly prefix = '') {}

  /**
   * The key of a new request: the tool's own `key`, or the kind's next free generated one. Throws
   * (to the tool) for an empty key or one already used in this call.
   */
  claim(request: InputRequest, key: string | undefined, target: InputTarget): string {
    if (key !== undefined) {
      if (typeof key !== 'string' || key === '') {
        throw mcpError(
          MCPErrorCode.SERVER_INVALID_INPUT_KEY,
          `${targetLabel(target)}: an input request key must be a non-empty string, not ${JSON.stringify(key)}`,
          { key: String(key) },
        );
      }
      const full = `${this.prefix}${key}`;
      if (this.used.has(full)) {
        throw mcpError(
          MCPErrorCode.SERVER_INVALID_INPUT_KEY,
          `${targetLabel(target)}: the input request key '${key}' was already used in this call; ` +
            'keys are unique over a call: give this request a key of its own',
          { key },
        );
      }
      this.used.add(full);
      return full;
    }
    const base = `${this.prefix}${KEY_PREFIXES[request.method]}`;
    let count = this.issued.get(base) ?? 0;
    let full: string;
    do full = `${base}-${++count}`;
    while (this.used.has(full));
    this.issued.set(base, count);
    this.used.add(full);
    return full;
  }
}
