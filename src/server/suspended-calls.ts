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
 * Parked runs are bounded (`limits`): at most `maxSuspendedCalls` on the server and
 * `maxSuspendedCallsPerPrincipal` per principal (anonymous callers share one budget). A run that
 * asks with no room left gets its question refused (its elicitation throws, and it ends on its
 * own) and the caller a JSON-RPC error naming the tool, the limit and the option. A parked run
 * belongs to the principal that started it: anyone else's retry is refused as if the state were
 * unknown, and the run is left as it was.
 */
import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  type ElicitResult,
  fromJsonSchema,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MCP_INSTANCE_ID_HEADER } from '../shared/instance-header.js';
import { principalOf } from './auth/principal.js';
import { DEFAULT_LIMITS, type ResolvedLimits } from './limits.js';
import { localRequestState, type ResolvedRequestState, rotatingCodec } from './request-state.js';
import { formatIssues } from './tool-schema.js';
import type { ElicitationRequest } from './types.js';

/** `data.reason` of the error a retry gets on an instance that does not hold its suspended call. */
export const WRONG_INSTANCE_REASON = 'wrong_instance';

/** JSON-RPC code of a call refused because the parked-call budget is spent (a server error). */
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

const elicitResultSchema = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

class SuspendedCall {
  readonly id = randomUUID();
  question: Question | undefined;
  result!: Promise<CallToolResult>;
  timer: NodeJS.Timeout | undefined;
  private asked!: Promise<'asked'>;
  private signalAsked!: () => void;
  private questions = 0;

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

  readonly elicit = (request: ElicitationRequest): Promise<ElicitResult> =>
    new Promise((resolve, reject) => {
      this.question = { key: `elicitation-${++this.questions}`, request, resolve, reject };
      this.signalAsked();
    });

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

  /** Resolves with the tool's result, or with 'asked' once it waits for input. */
  next(): Promise<CallToolResult | 'asked'> {
    return Promise.race([this.result, this.asked]);
  }
}

export class SuspendedCalls {
  private readonly calls = new Map<string, SuspendedCall>();
  /** Parked calls per principal (ANONYMOUS for unauthenticated callers). */
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

  /** How many calls are parked (for tests and introspection). */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Serves one round of a `tools/call`: starts the tool on the first round, feeds the client's
   * answer in on a retry, and returns either the final result or the next question.
   */
  async serve(
    ctx: ServerContext,
    toolName: string,
    start: (elicit: (request: ElicitationRequest) => Promise<ElicitResult>) => Promise<CallToolResult>,
  ): Promise<CallToolResult | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<SuspendedState>();
    const principal = principalOf(ctx.http?.authInfo) ?? ANONYMOUS;
    let call: SuspendedCall;
    if (state === undefined) {
      call = new SuspendedCall(toolName, principal);
      call.result = start(call.elicit);
    } else {
      call = this.resume(ctx, state, toolName, principal);
    }
    const outcome = await call.next();
    if (outcome !== 'asked') {
      this.forget(call);
      return outcome;
    }
    return this.park(call);
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
    if (response !== undefined) call.answer(this.checkAnswer(toolName, call.question, response));
    return call;
  }

  private checkAnswer(toolName: string, question: Question, response: unknown): ElicitResult {
    const parsed = elicitResultSchema.safeParse(response);
    if (!parsed.success) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${toolName}': inputResponses.${question.key} is not an elicitation result: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
          .join('; ')}`,
      );
    }
    const result = parsed.data as ElicitResult;
    if (result.action === 'accept' && result.content) {
      const outcome = fromJsonSchema(question.request.requestedSchema)['~standard'].validate(result.content);
      if (!(outcome instanceof Promise) && outcome.issues) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Tool '${toolName}': inputResponses.${question.key} does not match the requested schema: ${formatIssues(outcome.issues).join('; ')}`,
        );
      }
    }
    return result;
  }

  private async park(call: SuspendedCall): Promise<InputRequiredResult> {
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

  /** Counts a call newly parked, or refuses its question when the server's or its principal's budget is spent. */
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
