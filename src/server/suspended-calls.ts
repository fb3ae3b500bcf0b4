/**
 * Elicitation on the 2026-07-28 revision, where servers may not send requests. A tool that asks
 * for input stays suspended in memory; the `tools/call` answers `input_required` with signed,
 * short-lived request state; the client's retry carries the answer and resumes the same
 * execution. Each state is single use: once answered (or expired) it no longer matches.
 *
 * The run waits in this instance's memory, so the state names the instance: with a key shared by
 * every instance (request-state.ts) a retry that reaches another one verifies there and is refused
 * with `-32602`, `data.reason` 'wrong_instance' and the holder's id, never answered by a fresh run.
 *
 * Suspended runs are bounded (`limits`): at most `maxSuspendedCalls` on the server and
 * `maxSuspendedCallsPerPrincipal` per principal (anonymous callers share one budget). A run that
 * asks with no room left gets its question refused (its elicitation throws, and it ends on its
 * own) and the caller a JSON-RPC error naming the tool, the limit and the option. A suspended run
 * belongs to the principal that started it: anyone else's retry is refused as if the state were
 * unknown, and the run is left as it was.
 */
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ElicitResult,
  type InputRequiredResult,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCP_INSTANCE_ID_HEADER } from '../shared/instance-header.js';
import type { TaskProgress } from '../shared/tasks-wire.js';
import { principalOf } from './auth/principal.js';
import { checkElicitAnswer } from './elicit-answer.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from './limits.js';
import { localRequestState, type ResolvedRequestState, rotatingCodec } from './request-state.js';
import type { TaskHooks } from './tool-invocation.js';
import type { ElicitationRequest } from './types.js';

/** `data.reason` of the error a retry gets on an instance that does not hold its suspended call. */
export const WRONG_INSTANCE_REASON = 'wrong_instance';

/** JSON-RPC code of a call refused because the suspended-call budget is spent (a server error). */
export const SUSPENDED_CALLS_FULL_CODE = -32000;

/** The budget key of unauthenticated callers (principals are prefixed, so it never collides). */
const ANONYMOUS = '';

type Limits = Pick<
  ResolvedLimits,
  'maxSuspendedCalls' | 'maxSuspendedCallsPerPrincipal' | 'suspendedCallTimeoutMs'
>;

interface SuspendedState {
  callId: string;
  key: string;
  /** The instance holding the run (routers read it with `requestStateInstance()`). */
  instance: string;
}

interface Question {
  key: string;
  request: ElicitationRequest;
  resolve: (result: ElicitResult) => void;
  reject: (error: Error) => void;
}

type Elicit = (request: ElicitationRequest) => Promise<ElicitResult>;

/** What a run that became a task talks to from then on (a TaskRun). */
export interface TaskSink extends TaskHooks {
  elicit: Elicit;
  signal: AbortSignal;
  report(message: string, progress?: TaskProgress): void;
}

/** What a tool run started by `serve()` asks through, and what it reports to once it became a task. */
export interface RunHandle extends TaskHooks {
  elicit: Elicit;
  signal: AbortSignal;
  readonly task: TaskSink | undefined;
}

/**
 * A run that was still working one event-loop turn after a round: the caller makes it a task
 * (`handOver`: its later questions, progress and aborts go through the task) and awaits `result`.
 */
export interface StillWorking {
  result: Promise<CallToolResult>;
  handOver(task: TaskSink): void;
}

export function isStillWorking(value: object): value is StillWorking {
  return 'handOver' in value;
}

class SuspendedCall implements RunHandle {
  readonly id = randomUUID();
  question: Question | undefined;
  result!: Promise<CallToolResult>;
  timer: NodeJS.Timeout | undefined;
  private asked!: Promise<'asked'>;
  private signalAsked!: () => void;
  private questions = 0;
  task: TaskSink | undefined;
  /** A workflow run reported before the call became a task, passed on at the hand-over. */
  private workflow: [key: string, runId: string] | undefined;
  /** The run's abort signal: the first round's request, then the task's once it became one. */
  private readonly abort = new AbortController();

  constructor(
    readonly toolName: string,
    readonly principal: string,
  ) {
    this.resetAsked();
  }

  private resetAsked(): void {
    this.asked = new Promise((resolve) => {
      this.signalAsked = () => resolve('asked');
    });
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Aborts the run when `signal` does, until the returned function is called. */
  follow(signal: AbortSignal): () => void {
    const abort = () => this.abort.abort(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  }

  readonly elicit = (request: ElicitationRequest): Promise<ElicitResult> =>
    this.task
      ? this.task.elicit(request)
      : new Promise((resolve, reject) => {
          this.question = { key: `elicitation-${++this.questions}`, request, resolve, reject };
          this.signalAsked();
        });

  get released(): boolean {
    return this.task?.released ?? false;
  }

  workflowRun(key: string, runId: string): void {
    if (this.task) this.task.workflowRun(key, runId);
    else this.workflow = [key, runId];
  }

  /** From now on the run talks to `task`: the question asked just now goes there too. */
  handOver(task: TaskSink): void {
    this.follow(task.signal);
    this.task = task;
    if (this.workflow) task.workflowRun(...this.workflow);
    const question = this.question;
    this.question = undefined;
    if (question) task.elicit(question.request).then(question.resolve, question.reject);
  }

  answer(result: ElicitResult): void {
    const question = this.question;
    this.question = undefined;
    this.resetAsked();
    question?.resolve(result);
  }

  /** The question cannot wait: the tool's elicitation throws `error`, and the run ends on its own. */
  refuse(error: Error): void {
    const question = this.question;
    this.question = undefined;
    question?.reject(error);
  }

  /**
   * Resolves with the tool's result, or with 'asked' once it waits for input; with `untilWorking`,
   * with 'working' when it has done neither one event-loop turn later.
   */
  next(untilWorking: boolean): Promise<CallToolResult | 'asked' | 'working'> {
    if (!untilWorking) return Promise.race([this.result, this.asked]);
    const working = new Promise<'working'>((resolve) => setImmediate(() => resolve('working')));
    return Promise.race([this.result, this.asked, working]);
  }
}

/**
 * Whether client capabilities (a 2026-07-28 request's own, or a 2025 client's from `initialize`)
 * let the server ask a form question: an `elicitation` declaration with `form`, or a bare one (the
 * pre-mode meaning, as the SDK reads it).
 */
export function declaresFormElicitation(capabilities: unknown): boolean {
  const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  return 'form' in elicitation || !('url' in elicitation);
}

/** The client capabilities a 2026-07-28 request declares in its `_meta` envelope. */
export function requestCapabilities(ctx: ServerContext): unknown {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY];
}

export class SuspendedCalls {
  private readonly calls = new Map<string, SuspendedCall>();
  /** Suspended calls per principal (ANONYMOUS for unauthenticated callers). */
  private readonly perPrincipal = new Map<string, number>();
  readonly codec: RequestStateCodec<SuspendedState>;
  readonly instanceId: string;

  constructor(
    { keys, instanceId }: Pick<ResolvedRequestState, 'keys' | 'instanceId'> = localRequestState(),
    private readonly limits: Limits = DEFAULT_LIMITS,
  ) {
    this.codec = rotatingCodec<SuspendedState>(keys, Math.ceil(limits.suspendedCallTimeoutMs / 1000));
    this.instanceId = instanceId;
  }

  /** How many calls are suspended (for tests and introspection). */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Serves one round of a `tools/call`: starts the tool on the first round, feeds the client's
   * answer in on a retry, and returns either the final result or the next question. With
   * `untilWorking` (a tool that asks first and then runs as a task), a run that neither asked nor
   * finished one event-loop turn after the round is handed back as {@link StillWorking}.
   */
  async serve(
    ctx: ServerContext,
    toolName: string,
    start: (run: RunHandle) => Promise<CallToolResult>,
    { untilWorking = false } = {},
  ): Promise<CallToolResult | InputRequiredResult | StillWorking> {
    const state = ctx.mcpReq.requestState<SuspendedState>();
    const principal = principalOf(ctx.http?.authInfo) ?? ANONYMOUS;
    let call: SuspendedCall;
    let unfollow = () => {};
    if (state === undefined) {
      call = new SuspendedCall(toolName, principal);
      // Only while this first round is in flight: its request ends (and the SDK aborts its
      // signal) once it answers, and the run outlives it.
      unfollow = call.follow(ctx.mcpReq.signal);
      call.result = start(call);
    } else {
      call = this.resume(ctx, state, toolName, principal);
    }
    const outcome = await call.next(untilWorking);
    unfollow();
    if (outcome === 'asked')
      return declaresFormElicitation(requestCapabilities(ctx))
        ? this.suspend(call)
        : this.refuseUndeclared(call);
    this.forget(call);
    if (outcome !== 'working') return outcome;
    return { result: call.result, handOver: (task) => call.handOver(task) };
  }

  private resume(
    ctx: ServerContext,
    state: SuspendedState,
    toolName: string,
    principal: string,
  ): SuspendedCall {
    if (state.instance !== this.instanceId) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${toolName}': this retry belongs to a call suspended on server instance '${state.instance}' ` +
          `but reached instance '${this.instanceId}'; send it to '${state.instance}' (route by the ` +
          `${MCP_INSTANCE_ID_HEADER} header, see docs/DEPLOYMENT.md) or call the tool again`,
        { reason: WRONG_INSTANCE_REASON, instanceId: state.instance, receivedBy: this.instanceId },
      );
    }
    const call = this.calls.get(state.callId);
    // Another principal's call is answered exactly like an unknown one: its existence is not told.
    if (
      !call ||
      call.principal !== principal ||
      call.toolName !== toolName ||
      call.question?.key !== state.key
    ) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${toolName}': the suspended call this answer belongs to is not waiting any more for this caller ` +
          '(it expired, was already answered, was started by another caller, or its instance restarted); ' +
          'call the tool again',
      );
    }
    const response = ctx.mcpReq.inputResponses?.[state.key];
    if (response !== undefined)
      call.answer(checkElicitAnswer(toolName, state.key, call.question.request, response));
    return call;
  }

  private async suspend(call: SuspendedCall): Promise<InputRequiredResult> {
    const question = call.question as Question;
    if (!this.calls.has(call.id)) this.admit(call);
    clearTimeout(call.timer);
    call.timer = setTimeout(() => this.expire(call), this.limits.suspendedCallTimeoutMs);
    call.timer.unref();
    return inputRequired({
      inputRequests: { [question.key]: inputRequired.elicit(question.request) },
      requestState: await this.codec.mint({ callId: call.id, key: question.key, instance: this.instanceId }),
    });
  }

  /**
   * The round's client did not declare form elicitation, so it may not be asked (the SDK would
   * answer -32021 after the call was suspended, and the place would stay taken until it expired):
   * the question is refused (the tool's elicitation throws, and it ends on its own), the call
   * forgotten, and the caller gets the same -32021.
   */
  private refuseUndeclared(call: SuspendedCall): never {
    const key = (call.question as Question).key;
    const error = new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { elicitation: { form: {} } } },
      `Cannot request input '${key}' (elicitation/create): the request's client capabilities do not ` +
        `declare the required capability (tool '${call.toolName}' asked for input; declare elicitation)`,
    );
    call.refuse(error);
    this.forget(call);
    throw error;
  }

  /** Counts a call newly suspended, or refuses its question when the server's or its principal's budget is spent. */
  private admit(call: SuspendedCall): void {
    const { maxSuspendedCalls, maxSuspendedCallsPerPrincipal } = this.limits;
    const held = this.perPrincipal.get(call.principal) ?? 0;
    const spent =
      this.calls.size >= maxSuspendedCalls
        ? {
            limit: 'maxSuspendedCalls',
            reason: `${maxSuspendedCalls} calls are already waiting on this server`,
          }
        : held >= maxSuspendedCallsPerPrincipal
          ? {
              limit: 'maxSuspendedCallsPerPrincipal',
              reason: `${maxSuspendedCallsPerPrincipal} calls of this caller are already waiting`,
            }
          : undefined;
    if (spent) {
      const message =
        `Tool '${call.toolName}' cannot wait for input: ${spent.reason} (limits.${spent.limit}); ` +
        'answer one of them or call again later';
      call.refuse(new Error(message));
      throw new ProtocolError(SUSPENDED_CALLS_FULL_CODE, message, {
        tool: call.toolName,
        limit: spent.limit,
      });
    }
    this.calls.set(call.id, call);
    this.perPrincipal.set(call.principal, held + 1);
  }

  private forget(call: SuspendedCall): void {
    clearTimeout(call.timer);
    if (!this.calls.delete(call.id)) return;
    const held = (this.perPrincipal.get(call.principal) ?? 1) - 1;
    if (held > 0) this.perPrincipal.set(call.principal, held);
    else this.perPrincipal.delete(call.principal);
  }

  /** Nobody answered in time: the tool sees a cancel and finishes on its own. */
  private expire(call: SuspendedCall): void {
    this.forget(call);
    call.answer({ action: 'cancel' });
  }

  /** Cancels every waiting question (server shutdown). */
  cancelAll(): void {
    for (const call of [...this.calls.values()]) this.expire(call);
  }
}
