/**
 * One task running on this instance: its abort signal, the input requests its tool is waiting
 * on, and the writes that keep the stored task in step (status, status message, input requests,
 * the outcome). Writes go to the store one at a time, in order, so a later status never lands
 * before an earlier one; the store keeps a terminal status once set, so a cancel that wins the
 * race against the tool's own end is what clients see.
 */
import {
  TASK_PROGRESS_META_KEY,
  type TaskError,
  type TaskInputRequest,
  type TaskProgress,
} from '../../shared/tasks-wire.js';
import { checkAnswer } from '../input-answers.js';
import {
  type Ask,
  declares,
  describeRequest,
  type InputAnswer,
  InputKeys,
  type InputRequest,
  type InputTarget,
  undeclared,
  wireInputRequest,
} from '../input-requests.js';
import type { TaskHooks } from '../tool-invocation.js';
import type { MCPStoredTask, MCPTaskStore, MCPTaskUpdate } from './types.js';

/** Runs a tool for a task to its `CallToolResult`; throws what the tool threw. */
export type TaskWork = (run: TaskRun) => Promise<Record<string, unknown>>;

/** What a task another instance lost can be continued with here, if anything (resume.ts). */
export type TaskResumer = (task: MCPStoredTask) => TaskWork | undefined;

interface Question {
  request: InputRequest;
  resolve: (answer: InputAnswer) => void;
  reject: (error: unknown) => void;
}

export class TaskRun implements TaskHooks {
  private readonly abort = new AbortController();
  private readonly questions = new Map<string, Question>();
  /** Keys are never reused over the task's life, as the specification requires (input-requests.ts). */
  keys: InputKeys;
  private readonly target: InputTarget;
  /** What the task's input requests may be (see the constructor). */
  private readonly capabilities: unknown;
  private writes: Promise<unknown> = Promise.resolve();
  private expiry: NodeJS.Timeout | undefined;
  private releasedRun = false;

  constructor(
    readonly taskId: string,
    readonly owner: string | undefined,
    readonly toolName: string,
    private readonly store: MCPTaskStore,
    private readonly onWriteError: (error: unknown) => void,
    {
      keyPrefix = '',
      capabilities,
    }: {
      /** Starts every input request key: a run that takes over a task asks under keys of its own. */
      keyPrefix?: string;
      /**
       * The client capabilities of the request that created the task: what its input requests may
       * be. Unknown for a run that took a task over (its questions were once declared), so unchecked.
       */
      capabilities?: unknown;
    } = {},
  ) {
    this.keys = new InputKeys(keyPrefix);
    this.target = { method: 'tools/call', name: toolName };
    this.capabilities = capabilities;
  }

  /** Aborts when the task is cancelled, expires or the server closes; the tool's abort signal. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Ends the run when the task's TTL passes (the store forgets it then). */
  expireAt(expiresAt: number | undefined): void {
    if (expiresAt === undefined) return;
    this.expiry = setTimeout(
      () => this.stop(new Error(`task ${this.taskId} expired (tasks.ttlMs)`)),
      Math.max(0, expiresAt - Date.now()),
    );
    this.expiry.unref();
  }

  /** The tool's input requests: input requests of the task, answered by `tasks/update`. */
  readonly ask: Ask = (request, key) => {
    try {
      const claimed = this.keys.claim(request, key, this.target);
      if (this.capabilities !== undefined && !declares(this.capabilities, request))
        return Promise.reject(undeclared(request, claimed, this.target));
      return this.pose(claimed, request);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  /** Asks `request` under `key`, claimed already from {@link keys}. */
  pose(key: string, request: InputRequest): Promise<InputAnswer> {
    if (this.abort.signal.aborted) return Promise.reject(this.abort.signal.reason);
    const answer = new Promise<InputAnswer>((resolve, reject) => {
      this.questions.set(key, { request, resolve, reject });
      this.publishQuestions();
    });
    // A tool may leave a question it stopped waiting for: its refusal at the task's end must not go unhandled.
    answer.catch(() => {});
    return answer;
  }

  /**
   * Answers the pending input requests `inputResponses` names; keys not pending (never issued,
   * answered, or unknown) are ignored. A malformed answer to a pending key throws -32602 and
   * changes nothing.
   */
  respond(inputResponses: Record<string, unknown>): void {
    const answers: [Question, InputAnswer][] = [];
    for (const [key, response] of Object.entries(inputResponses)) {
      const question = this.questions.get(key);
      if (question) answers.push([question, checkAnswer(this.target, key, question.request, response)]);
    }
    if (answers.length === 0) return;
    for (const [key] of Object.entries(inputResponses)) this.questions.delete(key);
    this.publishQuestions();
    for (const [question, answer] of answers) question.resolve(answer);
  }

  /** The workflow run this task drives, stored with it (another instance resumes it from there). */
  workflowRun(key: string, runId: string): void {
    this.write({ workflow: { key, runId } });
  }

  /**
   * Progress or a log line from the tool, shown as the task's status message; progress numbers
   * are kept in its `_meta` until the next report that has some (clients show them as progress).
   */
  report(message: string, progress?: TaskProgress): void {
    this.write({
      statusMessage: message.slice(0, 1000),
      ...(progress ? { _meta: { [TASK_PROGRESS_META_KEY]: progress } } : {}),
    });
  }

  /** The tool's result, as the 2026-07-28 wire has it (`resultType: 'complete'`, which requesters check). */
  completed(result: Record<string, unknown>): Promise<unknown> {
    return this.settle({ status: 'completed', result: { ...result, resultType: 'complete' } });
  }

  failed(error: TaskError): Promise<unknown> {
    return this.settle({ status: 'failed', error, statusMessage: error.message });
  }

  cancelled(): Promise<unknown> {
    const settled = this.settle({ status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.stop(new Error(`task ${this.taskId} was cancelled`));
    return settled;
  }

  /** Aborts the tool and refuses its pending questions; the stored task is left to the caller. */
  stop(reason: Error): void {
    clearTimeout(this.expiry);
    for (const question of this.questions.values()) question.reject(reason);
    this.questions.clear();
    if (!this.abort.signal.aborted) this.abort.abort(reason);
  }

  get released(): boolean {
    return this.releasedRun;
  }

  /** Stops the run without another write: the stored task is left for an instance to take over. */
  release(reason: Error): void {
    this.releasedRun = true;
    this.stop(reason);
  }

  private settle(update: MCPTaskUpdate): Promise<unknown> {
    clearTimeout(this.expiry);
    return this.write({ ...update, inputRequests: undefined });
  }

  private publishQuestions(): void {
    const pending = [...this.questions.entries()];
    if (pending.length === 0) {
      this.write({ status: 'working', inputRequests: undefined, statusMessage: undefined });
      return;
    }
    const inputRequests: Record<string, TaskInputRequest> = {};
    for (const [key, { request }] of pending)
      inputRequests[key] = wireInputRequest(request) as TaskInputRequest;
    const first = pending[0]?.[1].request;
    this.write({
      status: 'input_required',
      inputRequests,
      ...(first ? { statusMessage: describeRequest(first) } : {}),
    });
  }

  private write(update: MCPTaskUpdate): Promise<unknown> {
    if (this.releasedRun) return this.writes;
    this.writes = this.writes.then(() => this.store.update(this.taskId, update)).catch(this.onWriteError);
    return this.writes;
  }
}
