/**
 * Public configuration of MCPServer's `tasks` option (the MCP Tasks extension, SEP-2663) and the
 * task store seam. Wire shapes live in `src/shared/tasks-wire.ts`; these are the author-facing
 * ones.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { DetailedTask, TaskStatus } from '../../shared/tasks-wire.js';

/**
 * Whether a tool runs as a task for a client that declared the extension: `optional` (it may),
 * `required` (it must: a client that did not declare the extension gets -32021) or `forbidden`
 * (never; the call is answered synchronously).
 */
export type MCPTaskSupport = 'forbidden' | 'optional' | 'required';

const TASK_SUPPORT_VALUES: ReadonlySet<unknown> = new Set(['forbidden', 'optional', 'required']);

export function isTaskSupport(value: unknown): value is MCPTaskSupport {
  return TASK_SUPPORT_VALUES.has(value);
}

/** A tool's task settings, when it needs more than its support value. */
export interface MCPToolTaskConfig {
  support: MCPTaskSupport;
  /**
   * Ask first, then run as a task: what the tool asks before it starts working is requested with
   * the call's own `input_required` rounds (multi round-trip), and the task is created on the
   * round after which it works on without asking. Default false: the task is created when the
   * call arrives and every question is one of the task's input requests.
   */
  inputBeforeTask?: boolean;
}

/** A task as a store keeps it: the wire task plus who may see it and who runs it. */
export interface MCPStoredTask extends DetailedTask {
  /** The principal that created it (the token's subject, client or digest); absent when anonymous. */
  owner?: string;
  /** The tool the task runs. */
  toolName: string;
  /** The server instance running it. */
  instanceId: string;
  /** Epoch milliseconds after which the store may forget it (createdAt + ttlMs); absent for unlimited. */
  expiresAt?: number;
  /** The workflow run a `run_<workflow>` task drives: another instance resumes it from its snapshot. */
  workflow?: { key: string; runId: string };
  /**
   * Set by a store that dropped this finished task's result and error to stay within a bound: the
   * store option naming it. `tasks/get` then answers -32602 saying so.
   */
  droppedBy?: string;
}

/** A change to a stored task; members set to `undefined` are removed. */
export interface MCPTaskUpdate {
  status?: TaskStatus;
  instanceId?: string;
  workflow?: MCPStoredTask['workflow'];
  statusMessage?: string | undefined;
  inputRequests?: DetailedTask['inputRequests'];
  result?: DetailedTask['result'];
  error?: DetailedTask['error'];
  /** The tool's last progress report, under `mastra/progress`. */
  _meta?: DetailedTask['_meta'];
}

/** What another instance asks of the one running a task. */
export type MCPTaskSignal = { type: 'input'; inputResponses: Record<string, unknown> } | { type: 'cancel' };

export interface MCPTaskStoreListener {
  /** Some instance asked the one running `taskId` for something. */
  signal?(taskId: string, signal: MCPTaskSignal): void;
  /** Some instance changed `taskId` (an `update()` that applied): listen streams following it re-read it. */
  changed?(taskId: string): void;
}

/**
 * Where tasks live. The in-memory default serves one process; a shared store (RedisMCPTaskStore
 * in `mastra-mcp/redis`) lets any instance behind one URL answer for any task.
 */
export interface MCPTaskStore {
  /** Stores a new task; resolves once a `get()` from any instance would find it. */
  create(task: MCPStoredTask): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<MCPStoredTask | undefined>;
  /**
   * Applies `update` and resolves with the task as stored after it; a terminal task is left as it
   * is (its status sticks) and returned unchanged, and so is a task whose `instanceId` is not
   * `expect.instanceId` when given (an instance taking over a task checks nobody took it first);
   * undefined when the task is unknown or expired. An update that applied is told to every
   * listener's `changed`, on every instance sharing the store.
   */
  update(
    taskId: string,
    update: MCPTaskUpdate,
    expect?: { instanceId: string },
  ): Promise<MCPStoredTask | undefined>;
  /** Passes `signal` to every listener (the instance running the task acts on it). */
  signal(taskId: string, signal: MCPTaskSignal): Promise<void>;
  /** Receives signals and changes until the returned function is called. */
  watch(listener: MCPTaskStoreListener): () => void;
  /**
   * Shared stores: marks `instanceId` alive for `ttlMs` (the server renews it every third of it
   * while it runs). A task whose instance is no longer alive is reported failed, never left
   * `working`. A store without it serves one process, where that cannot happen.
   */
  heartbeat?(instanceId: string, ttlMs: number): Promise<void>;
  /** Whether `instanceId` renewed its heartbeat in time. */
  isAlive?(instanceId: string): Promise<boolean>;
  /** `instanceId` stopped on purpose (`close()`). */
  release?(instanceId: string): Promise<void>;
  /** Releases what the store holds open (timers, connections). */
  close?(): Promise<void>;
}

export interface MCPServerTasksConfig {
  /**
   * Per tool name, whether it runs as a task. Default: what the tool declares itself
   * (`createTool({ mcp: { _meta: { 'mastra/taskSupport': 'optional' } } })`), else `optional` for
   * the derived `ask_<agent>` and `run_<workflow>` tools and `forbidden` for every other tool.
   */
  tools?: Record<string, MCPTaskSupport | MCPToolTaskConfig>;
  /**
   * Where tasks are kept. Default: a new InMemoryMCPTaskStore, with its bounds on what finished
   * tasks hold (pass `new InMemoryMCPTaskStore({ maxFinishedTaskBytes, ... })` to change them).
   */
  store?: MCPTaskStore;
  /** How long a task is kept from its creation, in ms; null keeps it until the store drops it. Default one hour. */
  ttlMs?: number | null;
  /** The polling interval suggested to clients, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** Unfinished tasks this server runs at once; a call beyond it is refused (-32000). Default 1000. */
  maxTasks?: number;
  /** Unfinished tasks one principal (anonymous callers share one budget) runs at once on this server. Default 100. */
  maxTasksPerPrincipal?: number;
  /**
   * Task ids one `subscriptions/listen` request may name (each is looked up before the stream is
   * acknowledged); a request naming more is refused (-32602). Default 1000.
   */
  maxListenTaskIds?: number;
  /**
   * With a shared store: how long an instance that stopped renewing its heartbeat (a crash, a
   * SIGKILL) is still taken as running; after it, its unfinished tasks are reported failed.
   * Default 15000 (renewed every third of it).
   */
  instanceTimeoutMs?: number;
  /** Who owns a task created with `authInfo`. Default: the token's subject, else its client id, else a digest of the token. */
  principal?: (authInfo: AuthInfo) => string | undefined;
}
