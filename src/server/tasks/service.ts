/**
 * MCPServer's tasks (the MCP Tasks extension, SEP-2663): which `tools/call` becomes a task, the
 * tasks this instance runs, and `attach()`, which gives one 2026-07-28 instance the `tasks/*`
 * handlers and advertises the extension. Legacy instances are never attached: 2025-era clients
 * call the same tools synchronously, as before.
 *
 * A task is created only for a request that declared the extension, and answered only once the
 * store holds it. Every task request checks the caller: another principal's task is answered
 * exactly like an unknown one (-32602), so its existence is not told. Unfinished tasks are
 * bounded per server and per principal (anonymous callers share one budget); finished ones by the
 * store, and a caller whose result it dropped is told which bound did. A store that fails is
 * answered -32603 "the task store is unavailable", its detail logged, never sent.
 */
import { randomUUID } from 'node:crypto';
import type { IMastraLogger } from '@mastra/core/logger';
import {
  type AuthInfo,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCPErrorCode } from '../../errors.js';
import {
  CancelTaskParamsSchema,
  CLIENT_CAPABILITIES_META_KEY,
  type DetailedTask,
  declaresTasks,
  GetTaskParamsSchema,
  isTerminal,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  TASKS_EXTENSION_ID,
  TASKS_METHODS,
  TASKS_REQUIRED_DATA,
  type TaskError,
  UpdateTaskParamsSchema,
} from '../../shared/tasks-wire.js';
import { defaultPrincipal } from '../auth/principal.js';
import { requestCapabilities } from '../input-requests.js';
import { protocolErrorIn, requestParams } from '../request-errors.js';
import { TaskFollowers, type WireTask } from './followers.js';
import { LISTEN_METHOD, type TaskListenRequest } from './listen.js';
import { InMemoryMCPTaskStore } from './memory-store.js';
import { invalidOption, positiveOption } from './options.js';
import { type TaskResumer, TaskRun, type TaskWork } from './task-run.js';
import type {
  MCPServerTasksConfig,
  MCPStoredTask,
  MCPTaskSignal,
  MCPTaskStore,
  MCPTaskSupport,
} from './types.js';
import { isTaskSupport } from './types.js';

/** JSON-RPC code of a call refused because the task budget is spent (a server error). */
export const TASKS_FULL_CODE = -32000;

/** The budget key of unauthenticated callers (principals are prefixed, so it never collides). */
const ANONYMOUS = '';

const invalidTasksOption = (message: string, field: string) => invalidOption('tasks', message, field);
const positive = (value: number | undefined, fallback: number, field: string) =>
  positiveOption('tasks', value, fallback, field);

function missingCapability(what: string): ProtocolError {
  return new ProtocolError(
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION_ID} extension in the request's client capabilities`,
    TASKS_REQUIRED_DATA,
  );
}

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Failed to retrieve task: task '${taskId}' not found (it never existed, expired, was dropped to keep finished tasks within the task store's bounds, or belongs to another caller)`,
  );
}

/** The caller's own task whose outcome the store dropped for a bound (`droppedBy`). */
function droppedTask(task: MCPStoredTask, option: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Failed to retrieve task: task '${task.taskId}' of tool '${task.toolName}' finished, but its result was dropped to keep finished tasks within the task store's ${option} (older results go first); call the tool again, or raise ${option}`,
  );
}

/** The task as the wire shows it: the store's bookkeeping left out. */
function wireTask(task: MCPStoredTask): DetailedTask & WireTask {
  const {
    owner: _owner,
    toolName: _tool,
    instanceId: _instance,
    expiresAt: _expires,
    droppedBy: _dropped,
    ...wire
  } = task;
  return wire;
}

export class TasksService {
  readonly store: MCPTaskStore;
  private readonly runs = new Map<string, TaskRun>();
  private readonly perPrincipal = new Map<string, number>();
  private readonly ttlMs: number | null;
  private readonly pollIntervalMs: number;
  private readonly maxTasks: number;
  private readonly maxTasksPerPrincipal: number;
  private readonly maxListenTaskIds: number;
  private readonly followers: TaskFollowers;
  private readonly principal: (authInfo: AuthInfo) => string | undefined;
  private readonly unwatch: (() => void) | undefined;
  private readonly instanceTimeoutMs: number;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The first heartbeat: no task is created before other instances can see this one alive. */
  private alive: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly config: MCPServerTasksConfig | undefined,
    readonly instanceId: string,
    private readonly logger: () => IMastraLogger,
    /** What a task another instance lost can be continued with here (workflows with storage). */
    private readonly resumer: TaskResumer = () => undefined,
  ) {
    for (const [tool, setting] of Object.entries(config?.tools ?? {})) {
      const support = typeof setting === 'object' && setting !== null ? setting.support : setting;
      if (!isTaskSupport(support)) {
        throw invalidTasksOption(
          `tools.${tool} must be 'forbidden', 'optional' or 'required' (or { support, inputBeforeTask }), not ${JSON.stringify(setting)}`,
          `tools.${tool}`,
        );
      }
    }
    const ttl = config?.ttlMs;
    this.ttlMs = ttl === null ? null : positive(ttl, 3_600_000, 'ttlMs');
    this.pollIntervalMs = positive(config?.pollIntervalMs, 1000, 'pollIntervalMs');
    this.maxTasks = positive(config?.maxTasks, 1000, 'maxTasks');
    this.maxTasksPerPrincipal = positive(config?.maxTasksPerPrincipal, 100, 'maxTasksPerPrincipal');
    this.principal = config?.principal ?? defaultPrincipal;
    this.instanceTimeoutMs = positive(config?.instanceTimeoutMs, 15_000, 'instanceTimeoutMs');
    this.maxListenTaskIds = positive(config?.maxListenTaskIds, 1000, 'maxListenTaskIds');
    this.store = config?.store ?? new InMemoryMCPTaskStore();
    this.followers = new TaskFollowers({
      store: this.store,
      wire: wireTask,
      check: async (task) => void (await this.orphaned(task)),
      sweepMs: this.instanceTimeoutMs,
      onerror: (error) =>
        this.logger().warn(`Tasks: following a task for a listen stream failed: ${String(error)}`),
    });
    this.unwatch = config
      ? this.store.watch({ signal: (taskId, signal) => this.onSignal(taskId, signal) })
      : undefined;
    if (config) this.startHeartbeat();
  }

  /** With a shared store, tells the other instances this one is running, every third of the timeout. */
  private startHeartbeat(): void {
    const { store } = this;
    if (!store.heartbeat) return;
    const beat = async () => {
      try {
        await store.heartbeat?.(this.instanceId, this.instanceTimeoutMs);
      } catch (error) {
        this.logger().warn(`Tasks: the heartbeat of instance ${this.instanceId} failed: ${String(error)}`);
      }
    };
    this.alive = beat();
    this.heartbeat = setInterval(beat, Math.max(1, Math.floor(this.instanceTimeoutMs / 3)));
    this.heartbeat.unref();
  }

  /** Whether the server was configured with tasks (and so advertises the extension). */
  get enabled(): boolean {
    return this.config !== undefined;
  }

  /** Tasks this instance is running (for tests and introspection). */
  get running(): number {
    return this.runs.size;
  }

  /** Listen streams following tasks on this instance (for tests and introspection). */
  get following(): number {
    return this.followers.size;
  }

  /** Warns about `tools` entries naming no tool the server serves (a typo; tools added later are fine). */
  warnUnserved(served: (name: string) => boolean): void {
    for (const tool of Object.keys(this.config?.tools ?? {})) {
      if (!served(tool)) {
        this.logger().warn(
          `tasks.tools.${tool}: this server serves no tool '${tool}' (yet); the entry applies once it does`,
        );
      }
    }
  }

  /**
   * How `toolName` runs for a client that declared the extension: as `tasks.tools` says, else as
   * the tool declares itself (`own`), else `optional` for derived tools and `forbidden` for others.
   */
  supportOf(toolName: string, derived: boolean, own?: MCPTaskSupport): MCPTaskSupport {
    if (!this.enabled) return 'forbidden';
    const setting = this.config?.tools?.[toolName];
    if (setting === undefined) return own ?? (derived ? 'optional' : 'forbidden');
    return typeof setting === 'object' ? setting.support : setting;
  }

  /** Whether `toolName` asks its first questions before it becomes a task (`inputBeforeTask`). */
  asksBeforeTask(toolName: string): boolean {
    const setting = this.config?.tools?.[toolName];
    return typeof setting === 'object' && setting.inputBeforeTask === true;
  }

  /**
   * Whether this `tools/call` runs as a task: only for a request that declared the extension,
   * and a tool that must run as one refuses any other request with -32021.
   */
  runsAsTask(ctx: ServerContext, support: MCPTaskSupport, toolName: string): boolean {
    if (support === 'forbidden') return false;
    if (declared(ctx)) return true;
    if (support === 'required') throw missingCapability(`tool '${toolName}' runs only as a task; calling it`);
    return false;
  }

  /** Stores a new task for `toolName`, starts `work` in the background and returns the CreateTaskResult. */
  async start(ctx: ServerContext, toolName: string, work: TaskWork): Promise<Record<string, unknown>> {
    if (this.closed) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The server is closing');
    await this.alive;
    const owner = this.ownerOf(ctx);
    this.admit(toolName, owner);
    const now = new Date();
    const createdAt = now.toISOString();
    const task: MCPStoredTask = {
      taskId: randomUUID(),
      status: 'working',
      createdAt,
      lastUpdatedAt: createdAt,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      toolName,
      instanceId: this.instanceId,
      ...(owner !== undefined ? { owner } : {}),
      ...(this.ttlMs !== null ? { expiresAt: now.getTime() + this.ttlMs } : {}),
    };
    const run = this.newRun(task, { capabilities: requestCapabilities(ctx) });
    this.track(run);
    try {
      await this.fromStore(`Tool '${toolName}' could not start a task`, () => this.store.create(task));
    } catch (error) {
      this.untrack(run);
      throw error;
    }
    run.expireAt(task.expiresAt);
    void this.execute(run, work);
    return { resultType: 'task', ...wireTask(task) };
  }

  /** Registers the `tasks/*` handlers on one 2026-07-28 instance and declares the extension. */
  attach(server: Server): void {
    if (!this.enabled) return;
    server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID]: {} } });
    server.setRequestHandler(
      TASKS_METHODS.get,
      { params: requestParams(GetTaskParamsSchema) },
      async (params, ctx) => wireTask(await this.visible(ctx, params.taskId, TASKS_METHODS.get)),
    );
    server.setRequestHandler(
      TASKS_METHODS.update,
      { params: requestParams(UpdateTaskParamsSchema) },
      async (params, ctx) => {
        const task = await this.visible(ctx, params.taskId, TASKS_METHODS.update);
        if (isTerminal(task.status)) return {};
        const inputResponses = ctx.mcpReq.inputResponses ?? {};
        const run = this.runs.get(task.taskId);
        if (run) run.respond(inputResponses);
        else
          await this.fromStore(served(TASKS_METHODS.update), () =>
            this.store.signal(task.taskId, { type: 'input', inputResponses }),
          );
        return {};
      },
    );
    server.setRequestHandler(
      TASKS_METHODS.cancel,
      { params: requestParams(CancelTaskParamsSchema) },
      async (params, ctx) => {
        const task = await this.visible(ctx, params.taskId, TASKS_METHODS.cancel);
        if (isTerminal(task.status)) return {};
        const run = this.runs.get(task.taskId);
        if (run) await run.cancelled();
        else {
          await this.fromStore(served(TASKS_METHODS.cancel), async () => {
            await this.store.update(task.taskId, {
              status: 'cancelled',
              statusMessage: 'Cancelled by the client',
            });
            await this.store.signal(task.taskId, { type: 'cancel' });
          });
        }
        return {};
      },
    );
  }

  /**
   * The tasks a `subscriptions/listen` request may follow: those the caller can see (others are
   * left out of the acknowledgement, as unknown ones are). -32021 when the request did not
   * declare the extension.
   */
  async listenable(request: TaskListenRequest, authInfo: AuthInfo | undefined): Promise<MCPStoredTask[]> {
    if (!request.declared) throw missingCapability("'subscriptions/listen' naming taskIds");
    if (request.taskIds.length > this.maxListenTaskIds) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid params for subscriptions/listen: params.notifications.taskIds names ${request.taskIds.length} tasks; at most ${this.maxListenTaskIds} (tasks.maxListenTaskIds)`,
      );
    }
    const owner = this.ownerFor(authInfo);
    const tasks = await this.fromStore(served(LISTEN_METHOD), () =>
      Promise.all(request.taskIds.map((taskId) => this.ownTask(taskId, owner))),
    );
    // A task whose outcome was dropped is left out, as unknown ones are: there is nothing to tell.
    return tasks.filter((task): task is MCPStoredTask => task !== undefined && task.droppedBy === undefined);
  }

  /** Sends `notifications/tasks` for `tasks` through `send` until the returned function is called. */
  follow(tasks: MCPStoredTask[], send: (task: WireTask) => void): () => void {
    return this.followers.follow(tasks, send);
  }

  /**
   * Continues `task` here with `work`, once this instance claimed it (only one instance wins a
   * claim: the store checks the task still names the lost instance). Its new input requests get
   * keys of their own, as keys are never reused over a task's life.
   */
  private async takeOver(task: MCPStoredTask, work: TaskWork): Promise<MCPStoredTask | undefined> {
    const claimed = await this.store.update(
      task.taskId,
      // Questions of the lost run are void: the run asks again here, under keys of its own.
      {
        instanceId: this.instanceId,
        status: 'working',
        inputRequests: undefined,
        statusMessage: `Resumed on instance ${this.instanceId}`,
      },
      { instanceId: task.instanceId },
    );
    if (!claimed || claimed.instanceId !== this.instanceId || isTerminal(claimed.status)) return claimed;
    const run = this.newRun(task, { keyPrefix: `resumed-${this.instanceId.slice(0, 8)}-` });
    this.track(run);
    run.expireAt(task.expiresAt);
    void this.execute(run, work);
    return claimed;
  }

  /** A run of `task` here (`options`: its key prefix, the capabilities its questions may need). */
  private newRun(task: MCPStoredTask, options?: ConstructorParameters<typeof TaskRun>[5]): TaskRun {
    const onWriteError = (error: unknown) =>
      this.logger().error(
        `Task ${task.taskId} (tool '${task.toolName}'): the task store failed: ${String(error)}`,
      );
    return new TaskRun(task.taskId, task.owner, task.toolName, this.store, onWriteError, options);
  }

  /** Stops every task this instance runs (they fail: nothing will finish them), then stops watching the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.followers.close();
    this.unwatch?.();
    const stopping = [...this.runs.values()].map(async (run) => {
      // A task an instance can take over (a workflow with storage, in a store that outlives this
      // process) is left as it is for that instance: only its run here stops.
      const task = this.config?.store ? await this.store.get(run.taskId).catch(() => undefined) : undefined;
      if (task && this.resumer(task)) {
        run.release(new Error('the server is closing'));
        return;
      }
      const failed = run.failed({
        code: ProtocolErrorCode.InternalError,
        message: 'The server closed before the task finished',
      });
      run.stop(new Error('the server is closing'));
      await failed;
    });
    await Promise.allSettled(stopping);
    await this.store.release?.(this.instanceId).catch(() => {});
    if (!this.config?.store) await this.store.close?.();
  }

  private async execute(run: TaskRun, work: TaskWork): Promise<void> {
    try {
      const result = await work(run);
      await run.completed(result);
    } catch (error) {
      const protocol = protocolErrorIn(error);
      const failure: TaskError = protocol
        ? {
            code: protocol.code,
            message: protocol.message,
            ...(protocol.data !== undefined ? { data: protocol.data } : {}),
          }
        : {
            code: ProtocolErrorCode.InternalError,
            message: error instanceof Error ? error.message : String(error),
          };
      await run.failed(failure);
    } finally {
      run.stop(new Error(`task ${run.taskId} finished`));
      this.untrack(run);
    }
  }

  /** The caller's task, or -32602 exactly as for an unknown one; an orphaned task is failed first. */
  private async visible(ctx: ServerContext, taskId: string, method: string): Promise<MCPStoredTask> {
    if (!declared(ctx)) throw missingCapability(`'${method}'`);
    const owner = this.ownerOf(ctx);
    const task = await this.fromStore(served(method), () => this.ownTask(taskId, owner));
    if (!task) throw unknownTask(taskId);
    if (task.droppedBy !== undefined) throw droppedTask(task, task.droppedBy);
    return task;
  }

  /**
   * Runs `operation` on the task store for `what` (`'tasks/get' could not be served`). A store
   * that fails (Redis down, a custom store throwing) is logged in full through the server's
   * logger, and the caller gets -32603 saying the task store is unavailable: the store's own
   * words (Redis key names, its error text) are for the operator. The in-memory store's refusal
   * when full of unfinished tasks is a budget, answered like the server's own caps.
   */
  private async fromStore<T>(what: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if ((error as { id?: unknown } | null)?.id === MCPErrorCode.SERVER_TASKS_STORE_FULL) {
        throw new ProtocolError(TASKS_FULL_CODE, `${what}: ${(error as Error).message}`, {
          limit: 'maxTasks',
        });
      }
      this.logger().error(`Tasks: ${what}: the task store failed: ${String(error)}`);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `${what}: the task store is unavailable; try again later`,
      );
    }
  }

  /** `owner`'s task (undefined when unknown or another's), an orphan failed or taken over first. */
  private async ownTask(taskId: string, owner: string | undefined): Promise<MCPStoredTask | undefined> {
    const task = await this.store.get(taskId);
    if (!task || task.owner !== owner) return undefined;
    return (await this.orphaned(task)) ?? task;
  }

  /**
   * A task nobody runs any more (its instance is this one but the run is not here: the process
   * restarted with the same instance id; or its instance stopped renewing its heartbeat: it
   * crashed) is taken over when it can be (a workflow with storage), else reported failed, never
   * left `working`.
   */
  private async orphaned(task: MCPStoredTask): Promise<MCPStoredTask | undefined> {
    if (isTerminal(task.status)) return undefined;
    const mine = task.instanceId === this.instanceId;
    if (
      mine ? this.runs.has(task.taskId) : !this.store.isAlive || (await this.store.isAlive(task.instanceId))
    )
      return undefined;
    const work = this.closed ? undefined : this.resumer(task);
    if (work) return this.takeOver(task, work);
    const message = `The server instance running this task (${task.instanceId}) stopped before the task finished`;
    return this.store.update(task.taskId, {
      status: 'failed',
      statusMessage: message,
      error: { code: ProtocolErrorCode.InternalError, message },
      inputRequests: undefined,
    });
  }

  private ownerOf(ctx: ServerContext): string | undefined {
    return this.ownerFor(ctx.http?.authInfo);
  }

  /** Who owns what `authInfo` creates: its principal; nobody in particular without auth. */
  private ownerFor(authInfo: AuthInfo | undefined): string | undefined {
    return authInfo ? this.principal(authInfo) : undefined;
  }

  private admit(toolName: string, owner: string | undefined): void {
    const held = this.perPrincipal.get(owner ?? ANONYMOUS) ?? 0;
    const spent =
      this.runs.size >= this.maxTasks
        ? { limit: 'maxTasks', reason: `${this.maxTasks} tasks are already running on this server` }
        : held >= this.maxTasksPerPrincipal
          ? {
              limit: 'maxTasksPerPrincipal',
              reason: `${this.maxTasksPerPrincipal} tasks of this caller are already running`,
            }
          : undefined;
    if (!spent) return;
    throw new ProtocolError(
      TASKS_FULL_CODE,
      `Tool '${toolName}' cannot start a task: ${spent.reason} (tasks.${spent.limit}); wait for one to finish or cancel one`,
      { tool: toolName, limit: spent.limit },
    );
  }

  private track(run: TaskRun): void {
    this.runs.set(run.taskId, run);
    const key = run.owner ?? ANONYMOUS;
    this.perPrincipal.set(key, (this.perPrincipal.get(key) ?? 0) + 1);
  }

  private untrack(run: TaskRun): void {
    if (!this.runs.delete(run.taskId)) return;
    const key = run.owner ?? ANONYMOUS;
    const held = (this.perPrincipal.get(key) ?? 1) - 1;
    if (held > 0) this.perPrincipal.set(key, held);
    else this.perPrincipal.delete(key);
  }

  /** Another instance forwarded an answer or a cancel for a task this one runs. */
  private onSignal(taskId: string, signal: MCPTaskSignal): void {
    const run = this.runs.get(taskId);
    if (!run) return;
    if (signal.type === 'cancel') {
      run.stop(new Error(`task ${taskId} was cancelled`));
      return;
    }
    try {
      run.respond(signal.inputResponses);
    } catch (error) {
      this.logger().warn(
        `Task ${taskId}: an answer forwarded by another instance was refused: ${String(error)}`,
      );
    }
  }
}

/** What a store failure under `method` could not do, for `fromStore`. */
function served(method: string): string {
  return `'${method}' could not be served`;
}

/** Whether the request declared the extension in its per-request client capabilities. */
function declared(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return declaresTasks(envelope?.[CLIENT_CAPABILITIES_META_KEY]);
}
