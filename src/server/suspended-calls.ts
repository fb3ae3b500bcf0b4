/**
 * Input requests on the 2026-07-28 revision, where servers may not send requests. A tool (or a
 * prompt's callback) that asks for input stays suspended in memory (a SuspendedCall,
 * suspended-call.ts); its request answers `input_required` with every question of the round and
 * signed, short-lived request state; the client's retry carries the answers and resumes the same
 * execution. Each state is single use: once a retry was served (or the call expired) it no longer
 * matches. A retry that answers only some questions is asked the rest again, with new state.
 *
 * The run waits in this instance's memory, so the state names the instance: with a key shared by
 * every instance (request-state.ts) a retry that reaches another one verifies there and is refused
 * with `-32602`, `data.reason` 'wrong_instance' and the holder's id, never answered by a fresh run.
 *
 * Suspended runs are bounded (`limits`): at most `maxSuspendedCalls` on the server and
 * `maxSuspendedCallsPerPrincipal` per principal (anonymous callers share one budget). A run that
 * asks with no room left gets its questions refused (its requests throw, and it ends on its own)
 * and the caller a JSON-RPC error naming the tool, the limit and the option. A suspended run
 * belongs to the principal that started it: anyone else's retry is refused as if the state were
 * unknown, and the run is left as it was.
 */
import {
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCP_INSTANCE_ID_HEADER } from '../shared/instance-header.js';
import { principalOf } from './auth/principal.js';
import { checkAnswer } from './input-answers.js';
import {
  declares,
  type InputAnswer,
  type InputTarget,
  requestCapabilities,
  targetKind,
  targetLabel,
  unanswered,
  undeclared,
  wireInputRequest,
} from './input-requests.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from './limits.js';
import { localRequestState, type ResolvedRequestState, rotatingCodec } from './request-state.js';
import { type RunHandle, SuspendedCall, type TaskSink } from './suspended-call.js';

export type { RunHandle, TaskSink } from './suspended-call.js';

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
  /** The round this state answers: each round mints its own, so a state is served once. */
  round: number;
  /** The instance holding the run (routers read it with `requestStateInstance()`). */
  instance: string;
}

/**
 * A run that was still working one event-loop turn after a round: the caller makes it a task
 * (`handOver`: its later questions, progress and aborts go through the task) and awaits `result`.
 */
export interface StillWorking<R extends Result> {
  result: Promise<R>;
  handOver(task: TaskSink): void;
}

export function isStillWorking<R extends Result>(value: object): value is StillWorking<R> {
  return 'handOver' in value;
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
   * Serves one round of a request whose callback may ask (a `tools/call`, a `prompts/get`): starts
   * the callback on the first round, feeds the client's answers in on a retry, and returns either
   * the final result or the round's questions.
   */
  serve<R extends Result>(
    ctx: ServerContext,
    target: InputTarget,
    start: (run: RunHandle) => Promise<R>,
    { ownSignal = true }: { ownSignal?: boolean } = {},
  ): Promise<R | InputRequiredResult> {
    return this.round(ctx, target, start, false, ownSignal) as Promise<R | InputRequiredResult>;
  }

  /**
   * {@link serve} for a tool that asks first and then runs as a task: a run that neither asked nor
   * finished one event-loop turn after the round is handed back as {@link StillWorking}.
   */
  serveUntilWorking<R extends Result>(
    ctx: ServerContext,
    target: InputTarget,
    start: (run: RunHandle) => Promise<R>,
  ): Promise<R | InputRequiredResult | StillWorking<R>> {
    return this.round(ctx, target, start, true, true);
  }

  private async round<R extends Result>(
    ctx: ServerContext,
    target: InputTarget,
    start: (run: RunHandle) => Promise<R>,
    untilWorking: boolean,
    /** The run gets a signal of its own (see InstanceProfile's `instancePerRequest`); a task's always does. */
    ownSignal: boolean,
  ): Promise<R | InputRequiredResult | StillWorking<R>> {
    const state = ctx.mcpReq.requestState<SuspendedState>();
    const principal = principalOf(ctx.http?.authInfo) ?? ANONYMOUS;
    let call: SuspendedCall<R>;
    let unfollow = () => {};
    if (state === undefined) {
      const signal = ownSignal ? undefined : ctx.mcpReq.signal;
      call = new SuspendedCall<R>(target, principal, requestCapabilities(ctx), signal);
      // Only while this first round is in flight: its request's instance may close once it
      // answered (and abort its signal), and the run outlives it.
      if (ownSignal) unfollow = call.follow(ctx.mcpReq.signal);
      call.result = start(call);
    } else {
      call = this.resume(ctx, state, target, principal) as SuspendedCall<R>;
    }
    let outcome: R | 'asked' | 'working';
    try {
      outcome = await call.next(untilWorking);
    } catch (error) {
      // The callback threw (a prompt's that failed, a tool's -32021): that is the answer.
      this.forget(call);
      throw error;
    } finally {
      unfollow();
    }
    if (outcome === 'asked') return this.suspend(call);
    this.forget(call);
    if (outcome !== 'working') return outcome;
    return { result: call.result, handOver: (task) => call.handOver(task) };
  }

  private resume(
    ctx: ServerContext,
    state: SuspendedState,
    target: InputTarget,
    principal: string,
  ): SuspendedCall {
    const label = targetLabel(target);
    if (state.instance !== this.instanceId) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${label}: this retry belongs to a call suspended on server instance '${state.instance}' ` +
          `but reached instance '${this.instanceId}'; send it to '${state.instance}' (route by the ` +
          `${MCP_INSTANCE_ID_HEADER} header, see docs/DEPLOYMENT.md) or send the request again`,
        { reason: WRONG_INSTANCE_REASON, instanceId: state.instance, receivedBy: this.instanceId },
      );
    }
    const call = this.calls.get(state.callId);
    // Another principal's call is answered exactly like an unknown one: its existence is not told.
    if (
      !call ||
      call.principal !== principal ||
      call.target.method !== target.method ||
      call.target.name !== target.name ||
      call.awaiting !== state.round
    ) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${label}: the suspended call this answer belongs to is not waiting any more for this caller ` +
          '(it expired, was already answered, was started by another caller, or its instance restarted); ' +
          'send the request again',
      );
    }
    // Every answer is checked before any is given: a bad one changes nothing, the state stays good.
    const answers = new Map<string, InputAnswer>();
    const responses = ctx.mcpReq.inputResponses ?? {};
    for (const [key, question] of call.pending) {
      if (responses[key] !== undefined)
        answers.set(key, checkAnswer(target, key, question.request, responses[key]));
    }
    call.awaiting = undefined;
    call.capabilities = requestCapabilities(ctx);
    call.answer(answers);
    return call;
  }

  private async suspend<R extends Result>(call: SuspendedCall<R>): Promise<InputRequiredResult> {
    const refused = [...call.pending].find(([, question]) => !declares(call.capabilities, question.request));
    if (refused) this.refuseUndeclared(call, undeclared(refused[1].request, refused[0], call.target));
    if (!this.holds(call)) this.admit(call);
    clearTimeout(call.timer);
    call.timer = setTimeout(
      () =>
        this.expire(
          call,
          `no answer came within ${this.limits.suspendedCallTimeoutMs} ms (limits.suspendedCallTimeoutMs)`,
        ),
      this.limits.suspendedCallTimeoutMs,
    );
    call.timer.unref();
    const inputRequests = Object.fromEntries(
      [...call.pending].map(([key, question]) => [key, wireInputRequest(question.request)]),
    );
    return inputRequired({
      inputRequests,
      requestState: await this.codec.mint({
        callId: call.id,
        round: call.nextRound(),
        instance: this.instanceId,
      }),
    });
  }

  /**
   * A question still pending from an earlier round that this round's client did not declare
   * capabilities for (a retry may declare fewer than the first request): it may not be asked (the
   * SDK would answer -32021 after the call was suspended, and the place would stay taken until it
   * expired), so the questions are refused (the run's requests throw, and it ends on its own), the
   * call forgotten, and the caller gets the same -32021.
   */
  private refuseUndeclared(call: SuspendedCall, error: Error): never {
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
        `${targetLabel(call.target)} cannot wait for input: ${spent.reason} (limits.${spent.limit}); ` +
        'answer one of them or call again later';
      call.refuse(new Error(message));
      throw new ProtocolError(SUSPENDED_CALLS_FULL_CODE, message, {
        [targetKind(call.target)]: call.target.name,
        limit: spent.limit,
      });
    }
    this.calls.set(call.id, call);
    this.perPrincipal.set(call.principal, held + 1);
  }

  /** Whether `call` is counted here (most calls never ask: they are never given an id). */
  private holds(call: SuspendedCall): boolean {
    return call.suspended && this.calls.has(call.id);
  }

  private forget(call: SuspendedCall): void {
    clearTimeout(call.timer);
    if (!this.holds(call)) return;
    this.calls.delete(call.id);
    const held = (this.perPrincipal.get(call.principal) ?? 1) - 1;
    if (held > 0) this.perPrincipal.set(call.principal, held);
    else this.perPrincipal.delete(call.principal);
  }

  /**
   * Nobody answered in time (or the server closes): an elicitation sees a cancel, sampling and
   * roots requests reject, and the run finishes on its own.
   */
  private expire(call: SuspendedCall, why: string): void {
    this.forget(call);
    for (const [key, question] of call.takePending()) {
      const outcome = unanswered(question.request, key, call.target, why);
      if ('error' in outcome) question.reject(outcome.error);
      else question.resolve(outcome.answer);
    }
  }

  /** Cancels every waiting question (server shutdown). */
  cancelAll(): void {
    for (const call of [...this.calls.values()]) this.expire(call, 'the server closed');
  }
}
