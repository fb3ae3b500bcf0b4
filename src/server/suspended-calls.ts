/**
 * Elicitation on the 2026-07-28 revision, where servers may not send requests. A tool that asks
 * for input stays suspended in memory; the `tools/call` answers `input_required` with signed,
 * short-lived request state; the client's retry carries the answer and resumes the same
 * execution. Each state is single use: once answered (or expired) it no longer matches.
 *
 * The run waits in this instance's memory, so the state names the instance: with a key shared by
 * every instance (request-state.ts) a retry that reaches another one verifies there and is refused
 * with `-32602`, `data.reason` 'wrong_instance' and the holder's id, never answered by a fresh run.
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
import { DEFAULT_LIMITS, type ResolvedLimits } from './limits.js';
import { localRequestState, type ResolvedRequestState, rotatingCodec } from './request-state.js';
import { formatIssues } from './tool-schema.js';
import type { ElicitationRequest } from './types.js';

/** How long a suspended tool waits for the client's answer before its elicitation is cancelled. */
export const SUSPENDED_CALL_TTL_SECONDS = 300;

/** `data.reason` of the error a retry gets on an instance that does not hold its suspended call. */
export const WRONG_INSTANCE_REASON = 'wrong_instance';

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

  constructor(readonly toolName: string) {
    this.resetAsked();
  }

  private resetAsked(): void {
    this.asked = new Promise((resolve) => {
      this.signalAsked = () => resolve('asked');
    });
  }

  readonly elicit = (request: ElicitationRequest): Promise<ElicitResult> =>
    new Promise((resolve) => {
      this.question = { key: `elicitation-${++this.questions}`, request, resolve };
      this.signalAsked();
    });

  answer(result: ElicitResult): void {
    const question = this.question;
    this.question = undefined;
    this.resetAsked();
    question?.resolve(result);
  }

  /** Resolves with the tool's result, or with 'asked' once it waits for input. */
  next(): Promise<CallToolResult | 'asked'> {
    return Promise.race([this.result, this.asked]);
  }
}

export class SuspendedCalls {
  private readonly calls = new Map<string, SuspendedCall>();
  readonly codec: RequestStateCodec<SuspendedState>;
  readonly instanceId: string;

  constructor(
    { keys, instanceId }: Pick<ResolvedRequestState, 'keys' | 'instanceId'> = localRequestState(),
    private readonly limits: Pick<
      ResolvedLimits,
      'maxSuspendedCalls' | 'maxSuspendedCallsPerPrincipal'
    > = DEFAULT_LIMITS,
  ) {
    this.codec = rotatingCodec<SuspendedState>(keys, SUSPENDED_CALL_TTL_SECONDS);
    this.instanceId = instanceId;
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
    let call: SuspendedCall;
    if (state === undefined) {
      call = new SuspendedCall(toolName);
      call.result = start(call.elicit);
    } else {
      call = this.resume(ctx, state, toolName);
    }
    const outcome = await call.next();
    if (outcome !== 'asked') {
      this.forget(call);
      return outcome;
    }
    return this.park(call);
  }

  private resume(ctx: ServerContext, state: SuspendedState, toolName: string): SuspendedCall {
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
    if (!call || call.toolName !== toolName || call.question?.key !== state.key) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${toolName}': the suspended call this answer belongs to is not waiting any more ` +
          '(it expired, was already answered, or its instance restarted); call the tool again',
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
    clearTimeout(call.timer);
    call.timer = setTimeout(() => this.expire(call), SUSPENDED_CALL_TTL_SECONDS * 1000);
    call.timer.unref();
    this.calls.set(call.id, call);
    return inputRequired({
      inputRequests: { [question.key]: inputRequired.elicit(question.request) },
      requestState: await this.codec.mint({ callId: call.id, key: question.key, instance: this.instanceId }),
    });
  }

  private forget(call: SuspendedCall): void {
    clearTimeout(call.timer);
    this.calls.delete(call.id);
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
