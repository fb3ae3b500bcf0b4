/**
 * What ServerConnection.run does when an operation on an HTTP server fails because the server went
 * away (a restart, a deploy): which requests are sent again, and how long a reconnect is waited
 * for. A request reaches the server at most once unless running it twice is harmless:
 * - 'unsent': the connection was refused, so nothing was sent. The operation runs again once the
 *   connection is back; a reconnect that is refused or reset is tried again, backing off (50 ms
 *   doubling to 1 s), for up to 10 s from the operation's start (the server's `timeout` if
 *   shorter). A server still down then fails the operation, and later ones at once, until a
 *   connect succeeds.
 * - 'forgotten': a legacy session the server no longer knows (404, or 410 Gone). It dropped the
 *   request with the session: a new session, and the operation once more.
 * - 'cut': sent, and its answer stream or connection closed before the answer (answer-watch.ts).
 *   Run once more on a new connection only when safe to repeat (REPEATABLE_METHODS, or a tool its
 *   listing annotates `readOnlyHint` or `idempotentHint`); otherwise AnswerCutError.
 */
import type { Client } from '@modelcontextprotocol/client';
import { sleep } from '../../shared/sleep.js';
import { AnswerCutError, causeChain, describeCause, httpStatusOf, messageOf } from '../errors.js';
import { isSdkClientError } from '../sdk-load.js';
import { answerCutOf, type SentRequest, sentRequestOf } from './answer-watch.js';

export type Loss = 'unsent' | 'forgotten' | 'cut';

/** Methods whose second run changes nothing at the server: handshakes, listings, gets and reads, ping. */
const REPEATABLE_METHODS = new Set([
  'initialize',
  'server/discover',
  'ping',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'tasks/get',
  'tasks/list',
  'events/list',
  'events/poll',
]);

/** Nothing was sent: the connection was never made. */
const REFUSED = 'ECONNREFUSED';
/** The connection broke after the request may have been written. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const SSE_CODE = /\b(ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/;

/** How long a restarting server is waited for: most restart in seconds; one that is down should fail soon. */
const RECONNECT_WINDOW_MS = 10_000;
const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 1000;

export const LOSS_MESSAGES: Record<Loss, string> = {
  unsent: 'the server refused the connection; reconnecting, then sending the request again',
  forgotten: 'the server forgot the session; reconnecting',
  cut: 'the connection closed before the answer; reconnecting, then sending the request again (safe to repeat)',
};

/** Why the operation behind `error` failed, if the server going away explains it. `legacy`: a sessionful era. */
export function lossOf(error: unknown, legacy: boolean): Loss | undefined {
  if (answerCutOf(error)) return 'cut';
  const status = httpStatusOf(error);
  if (status !== undefined) return legacy && (status === 404 || status === 410) ? 'forgotten' : undefined;
  for (const candidate of causeChain(error)) {
    // The legacy SSE stream's failure keeps only its cause's text: `SSE error: TypeError: fetch failed: connect ECONNREFUSED …`.
    const code = isSdkClientError(candidate, 'SseError')
      ? SSE_CODE.exec(candidate.message)?.[0]
      : (candidate as { code?: unknown }).code;
    if (code === REFUSED) return 'unsent';
    if (typeof code === 'string' && BROKEN.has(code)) return 'cut';
  }
  return undefined;
}

/** Whether `request` may run twice at the server. `tools`: those annotated readOnlyHint or idempotentHint. */
export function repeatable(request: SentRequest | undefined, tools: ReadonlySet<string>): boolean {
  if (!request) return false;
  if (REPEATABLE_METHODS.has(request.method)) return true;
  return request.method === 'tools/call' && request.tool !== undefined && tools.has(request.tool);
}

/** The error of a cut request not sent again, naming the server and the request. */
export function answerCutError(serverName: string, error: unknown): AnswerCutError {
  const why = answerCutOf(error)?.why ?? describeCause(error) ?? messageOf(error);
  return new AnswerCutError(serverName, sentRequestOf(error)?.label ?? 'the request', why, error);
}

/** What ConnectionRecovery needs of its ServerConnection. */
export interface RecoveryHost {
  readonly name: string;
  readonly timeout: number;
  /** Aborted once the connection is closed for good. */
  readonly closedSignal: AbortSignal;
  get(signal?: AbortSignal): Promise<Client>;
  log(level: 'info' | 'debug', message: string): void;
}

/**
 * One HTTP server's recovery: runs operations again as the module comment says, and remembers
 * whether the connection is being recovered (a lost connection not yet restored), during which a
 * refused or reset reconnect is waited out. `detach` takes a client out of use: the connection's
 * next operation reconnects.
 */
export class ConnectionRecovery {
  /** Tools this server's listings annotate `readOnlyHint` or `idempotentHint`. */
  readonly repeatableTools = new Set<string>();
  private recovering = false;
  private readonly retiring = new RetiringClients();

  constructor(
    private readonly host: RecoveryHost,
    private readonly detach: (client: Client) => void,
  ) {}

  /** The connection closed unasked: the next reconnect may find the server restarting. */
  lost(): void {
    this.recovering = true;
  }

  restored(): void {
    this.recovering = false;
  }

  /** Runs `attempt` on the connected client, again after a loss the server going away explains. */
  async run<T>(signal: AbortSignal | undefined, attempt: (client: Client) => Promise<T>): Promise<T> {
    const budget = new RetryBudget(this.host.timeout);
    for (;;) {
      const client = await this.connected(budget, signal);
      this.retiring.use(client);
      try {
        return await attempt(client);
      } catch (error) {
        await this.recover(error, client, budget, signal);
      } finally {
        this.retiring.release(client);
      }
    }
  }

  /** Closes the clients still finishing operations (the connection's close()). */
  close(): Promise<void> {
    return this.retiring.closeAll();
  }

  private async connected(budget: RetryBudget, signal: AbortSignal | undefined): Promise<Client> {
    for (;;) {
      try {
        return await this.host.get(signal);
      } catch (error) {
        if (!this.recovering || !lossOf(error, false)) throw error;
        this.host.log(
          'debug',
          `reconnecting: the server refused or reset the connection (${messageOf(error)})`,
        );
        if (!(await budget.pause(signal))) {
          // Given up: later operations fail at once, as on a first connect, until one succeeds.
          this.recovering = false;
          throw error;
        }
      }
    }
  }

  /** Returns when the operation should run again after `error`; throws otherwise. */
  private async recover(
    error: unknown,
    client: Client,
    budget: RetryBudget,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const loss = this.host.closedSignal.aborted
      ? undefined
      : lossOf(error, client.getProtocolEra() === 'legacy');
    if (!loss) throw error;
    const safe = loss !== 'cut' || repeatable(sentRequestOf(error), this.repeatableTools);
    if (!safe) throw answerCutError(this.host.name, error);
    if (!budget.allows(loss)) throw error;
    this.host.log('info', LOSS_MESSAGES[loss]);
    this.recovering = true;
    this.detach(client);
    this.retiring.retire(client);
    if (loss === 'unsent' && !(await budget.pause(signal))) throw error;
  }
}

/** One operation's retries: a forgotten session and a cut answer once each, refusals until its deadline. */
export class RetryBudget {
  private readonly deadline: number;
  private readonly spent = new Set<Loss>();
  private pauseMs = FIRST_PAUSE_MS;

  constructor(timeoutMs: number) {
    this.deadline = Date.now() + Math.min(timeoutMs, RECONNECT_WINDOW_MS);
  }

  /** Whether the operation may run again after `loss`. */
  allows(loss: Loss): boolean {
    if (loss === 'unsent') return Date.now() < this.deadline;
    if (this.spent.has(loss)) return false;
    this.spent.add(loss);
    return true;
  }

  /** Waits before the next reconnect attempt; false, without waiting, once the deadline passed. */
  async pause(signal: AbortSignal | undefined): Promise<boolean> {
    const left = this.deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(this.pauseMs, left), signal ?? new AbortController().signal);
    if (signal?.aborted) throw signal.reason;
    this.pauseMs = Math.min(this.pauseMs * 2, LONGEST_PAUSE_MS);
    return true;
  }
}

/**
 * SDK clients detached after a loss: new operations reconnect while those still running on the
 * old client finish there (or fail on their own); it closes once the last of them ends.
 */
export class RetiringClients {
  private readonly users = new Map<Client, number>();
  private readonly retired = new Set<Client>();

  use(client: Client): void {
    this.users.set(client, (this.users.get(client) ?? 0) + 1);
  }

  release(client: Client): void {
    const left = (this.users.get(client) ?? 1) - 1;
    if (left > 0) {
      this.users.set(client, left);
      return;
    }
    this.users.delete(client);
    if (this.retired.delete(client)) void client.close().catch(() => {});
  }

  retire(client: Client): void {
    if (this.users.has(client)) this.retired.add(client);
    else void client.close().catch(() => {});
  }

  /** Closes every retired client at once (the connection's close()). */
  async closeAll(): Promise<void> {
    const clients = [...this.retired];
    this.retired.clear();
    await Promise.allSettled(clients.map((client) => client.close()));
  }
}
