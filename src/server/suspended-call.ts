/**
 * One run of a tool (or a prompt's callback) that asks its 2026-07-28 caller for input: the
 * questions it has asked and not had answered, and the rounds in which they reach the client.
 * SuspendedCalls (suspended-calls.ts) keeps these between requests and serves their rounds.
 *
 * A round is closed deterministically: at the first event-loop turn (`setImmediate`) after the
 * round began, or after the first question once none was pending, every question the run has
 * asked by then goes out together. Questions asked in one synchronous stretch or microtask chain
 * (`Promise.all([elicit, createMessage, roots.list])`) land in the same round; a question asked
 * after the run waited on I/O goes out in the next one.
 */
import { randomUUID } from 'node:crypto';
import type { Result } from '@modelcontextprotocol/server';
import type { TaskProgress } from '../shared/tasks-wire.js';
import {
  type Ask,
  declares,
  type InputAnswer,
  InputKeys,
  type InputRequest,
  type InputTarget,
  undeclared,
} from './input-requests.js';
import type { TaskHooks } from './tool-invocation.js';

/** What a run that became a task talks to from then on (a TaskRun). */
export interface TaskSink extends TaskHooks {
  ask: Ask;
  /** Asks under a key already claimed from {@link keys} (a question the call asked before it became the task). */
  pose(key: string, request: InputRequest): Promise<InputAnswer>;
  /** The task's input-request keys; the call's own once it is handed over (keys are unique over the call). */
  keys: InputKeys;
  signal: AbortSignal;
  report(message: string, progress?: TaskProgress): void;
}

/** What a run started by `SuspendedCalls.serve()` asks through, and what it reports to once it became a task. */
export interface RunHandle extends TaskHooks {
  ask: Ask;
  signal: AbortSignal;
  readonly task: TaskSink | undefined;
}

export interface Question {
  request: InputRequest;
  resolve: (answer: InputAnswer) => void;
  reject: (error: Error) => void;
}

export class SuspendedCall<R extends Result = Result> implements RunHandle {
  /** Given when the call first suspends (most runs never ask, and need no id). */
  private callId: string | undefined;
  result!: Promise<R>;
  timer: NodeJS.Timeout | undefined;
  /** Questions asked and not answered yet, by key, in the order asked. */
  readonly pending = new Map<string, Question>();
  /** The round whose request state the client's retry must carry; undefined while a round is served. */
  awaiting: number | undefined;
  private rounds = 0;
  private inputKeys: InputKeys | undefined;
  /** Called at the next question, when the round waits for one. */
  private onAsk: (() => void) | undefined;
  task: TaskSink | undefined;
  /** A workflow run reported before the call became a task, passed on at the hand-over. */
  private workflow: [key: string, runId: string] | undefined;
  /**
   * The run's own abort controller, following the first round's request, then the task's once it
   * became one; none when the run keeps its request's signal (`requestSignal`).
   */
  private readonly abort: AbortController | undefined;
  readonly signal: AbortSignal;

  constructor(
    readonly target: InputTarget,
    readonly principal: string,
    /** The client capabilities of the round being served (the latest one between rounds). */
    public capabilities: unknown,
    /** The first request's signal, for a run that keeps it (it never becomes a task). */
    requestSignal?: AbortSignal,
  ) {
    if (requestSignal) {
      this.abort = undefined;
      this.signal = requestSignal;
    } else {
      this.abort = new AbortController();
      this.signal = this.abort.signal;
    }
  }

  /** Whether the call has an id yet: SuspendedCalls gives it one when it first holds the call. */
  get suspended(): boolean {
    return this.callId !== undefined;
  }

  get id(): string {
    this.callId ??= randomUUID();
    return this.callId;
  }

  private get keys(): InputKeys {
    this.inputKeys ??= new InputKeys();
    return this.inputKeys;
  }

  /** Aborts the run when `signal` does, until the returned function is called (a run with its own controller). */
  follow(signal: AbortSignal): () => void {
    const controller = this.abort;
    if (!controller) return () => {};
    const abort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  }

  /**
   * A question of the run: refused at once when the key is taken or the round's client did not
   * declare what it needs (the tool may go on without it), otherwise pending until answered.
   */
  readonly ask: Ask = (request, key) => {
    if (this.task) return this.task.ask(request, key);
    try {
      const claimed = this.keys.claim(request, key, this.target);
      if (!declares(this.capabilities, request))
        return Promise.reject(undeclared(request, claimed, this.target));
      const answer = new Promise<InputAnswer>((resolve, reject) => {
        this.pending.set(claimed, { request, resolve, reject });
      });
      // A run may leave a question it stopped waiting for: its refusal must not go unhandled.
      answer.catch(() => {});
      const wake = this.onAsk;
      this.onAsk = undefined;
      wake?.();
      return answer;
    } catch (error) {
      return Promise.reject(error);
    }
  };

  get released(): boolean {
    return this.task?.released ?? false;
  }

  workflowRun(key: string, runId: string): void {
    if (this.task) this.task.workflowRun(key, runId);
    else this.workflow = [key, runId];
  }

  /** From now on the run talks to `task`: the questions pending go there too, under their keys. */
  handOver(task: TaskSink): void {
    this.follow(task.signal);
    this.task = task;
    task.keys = this.keys;
    if (this.workflow) task.workflowRun(...this.workflow);
    for (const [key, question] of this.takePending()) {
      task.pose(key, question.request).then(question.resolve, question.reject);
    }
  }

  /** The next round's number, once its state is minted. */
  nextRound(): number {
    this.awaiting = ++this.rounds;
    return this.awaiting;
  }

  /** Gives each answered question its answer (already checked). */
  answer(answers: ReadonlyMap<string, InputAnswer>): void {
    for (const [key, answer] of answers) {
      const question = this.pending.get(key);
      this.pending.delete(key);
      question?.resolve(answer);
    }
  }

  /** The questions cannot wait: each rejects with `error`, and the run ends on its own. */
  refuse(error: Error): void {
    for (const [, question] of this.takePending()) question.reject(error);
  }

  /** Empties the pending questions and returns them. */
  takePending(): [string, Question][] {
    const taken = [...this.pending];
    this.pending.clear();
    this.onAsk = undefined;
    return taken;
  }

  /**
   * Resolves with the run's result, or 'asked' once this round's questions are in (the turn rule
   * at the top of this file); with `untilWorking`, with 'working' when the run has neither finished
   * nor asked at the first turn.
   */
  next(untilWorking: boolean): Promise<R | 'asked' | 'working'> {
    return new Promise((resolve, reject) => {
      this.result.then(resolve, reject);
      const settle = () => {
        if (this.pending.size > 0) resolve('asked');
        else if (untilWorking) resolve('working');
        else this.onAsk = turn;
      };
      const turn = () => setImmediate(settle);
      // A run that has not asked waits for its first question before a turn is scheduled: one
      // that finishes without asking (most tool calls) never schedules one.
      if (untilWorking || this.pending.size > 0) turn();
      else this.onAsk = turn;
    });
  }
}
