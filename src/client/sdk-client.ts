/**
 * The SDK `Client` one server connection talks through: the capabilities and revision negotiation
 * its definition asks for, and the routing of that server's notifications and input requests to
 * the connection's handler sets. A reconnect builds a new client; the handler sets outlive them
 * all, so handlers registered once keep firing across reconnects.
 */
import type { Client, ClientCapabilities, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../errors.js';
import { type DetailedTask, DetailedTaskSchema, TASKS_NOTIFICATION } from '../shared/tasks-wire.js';
import type { Telemetry } from '../shared/telemetry/telemetry.js';
import { forLegacyServer, SAMPLING_REJECTED, type ServerAnswers } from './answers.js';
import { messageOf } from './errors.js';
import type { TelemetryClient } from './sdk-telemetry.js';
import type { TaskPush } from './tasks/task-push.js';
import type { LogHandler, MastraMCPServerDefinition, MCPProgressUpdate } from './types.js';

/** Handler sets a connection keeps across reconnects. */
export class ServerHandlers {
  readonly toolsChanged = new Set<() => void>();
  readonly promptsChanged = new Set<() => void>();
  readonly resourcesChanged = new Set<() => void>();
  readonly resourceUpdated = new Set<(params: { uri: string }) => void>();
  readonly progress = new Set<(params: MCPProgressUpdate) => void>();
}

/** The connection a client is built for (ServerConnection). */
export interface ClientOwner {
  readonly name: string;
  readonly definition: MastraMCPServerDefinition;
  readonly handlers: ServerHandlers;
  /** Checks structured output: the server's own validator, or the default within its pattern budget. */
  readonly jsonSchemaValidator: jsonSchemaValidator;
  /** Read when a request arrives: `elicitation.onRequest()` replaces it at runtime. */
  readonly inputRequests: MastraMCPServerDefinition['inputRequests'];
  readonly emit: LogHandler;
  /** Where `notifications/tasks` go. */
  readonly taskPush: TaskPush;
  /** What answers the server's sampling and roots requests. */
  readonly answers: ServerAnswers;
  /** Aborts when the client disconnects: answers still running stop with it. */
  readonly closedSignal: AbortSignal;
  log(level: 'warning' | 'error', message: string): void;
}

/**
 * The capabilities a client built for `owner` declares: elicitation with an input handler,
 * sampling and roots where they are answered, extensions as configured.
 */
export function clientCapabilitiesOf(
  owner: Pick<ClientOwner, 'definition' | 'inputRequests' | 'answers'>,
): ClientCapabilities {
  const { definition, answers } = owner;
  const declared = definition.capabilities;
  const elicitation = owner.inputRequests ? (declared?.elicitation ?? { form: {} }) : undefined;
  return {
    ...(elicitation ? { elicitation } : {}),
    ...(answers.sampler ? { sampling: declared?.sampling ?? {} } : {}),
    ...(answers.roots ? { roots: { listChanged: declared?.roots?.listChanged !== false } } : {}),
    ...(definition.capabilities?.extensions ? { extensions: definition.capabilities.extensions } : {}),
  } as ClientCapabilities;
}

/** What the MCPClient gives each of its connections' SDK clients. */
export interface SdkClientSettings {
  clientInfo: { name: string; version: string };
  telemetry: Telemetry;
}

/**
 * A new SDK client for `owner`, its notifications and input requests routed; not yet connected.
 * `Sdk` is the client class, once the SDK client has loaded (sdk-load.ts).
 */
export function newSdkClient(
  Sdk: typeof TelemetryClient,
  owner: ClientOwner,
  { clientInfo, telemetry }: SdkClientSettings,
): Client {
  const { definition } = owner;
  const mode =
    definition.protocolVersion === 'legacy'
      ? 'legacy'
      : definition.protocolVersion
        ? { pin: definition.protocolVersion }
        : 'auto';
  const client = new Sdk(
    {
      name: definition.clientInfo?.name ?? clientInfo.name,
      version: definition.clientInfo?.version ?? clientInfo.version,
    },
    {
      capabilities: clientCapabilitiesOf(owner),
      versionNegotiation: { mode },
      jsonSchemaValidator: owner.jsonSchemaValidator,
    },
    telemetry,
    owner,
  );
  routeNotifications(client, owner);
  if (owner.inputRequests) routeInputRequests(client, owner);
  routeAnswers(client, owner);
  return client;
}

/** `value` to each handler of `set`; a throwing handler is logged, the others still run. */
export function fire<T>(owner: Pick<ClientOwner, 'log'>, set: Set<(value: T) => void>, value: T): void {
  for (const handler of set) {
    try {
      handler(value);
    } catch (error) {
      owner.log('error', `notification handler failed: ${messageOf(error)}`);
    }
  }
}

/** Each notification to its handler set. */
function routeNotifications(client: Client, owner: ClientOwner): void {
  const { handlers } = owner;
  client.setNotificationHandler('notifications/tools/list_changed', () =>
    fire(owner, handlers.toolsChanged, undefined),
  );
  client.setNotificationHandler('notifications/prompts/list_changed', () =>
    fire(owner, handlers.promptsChanged, undefined),
  );
  client.setNotificationHandler('notifications/resources/list_changed', () =>
    fire(owner, handlers.resourcesChanged, undefined),
  );
  client.setNotificationHandler('notifications/resources/updated', (n) =>
    fire(owner, handlers.resourceUpdated, { uri: n.params.uri }),
  );
  // Our own progress routing: tokens we choose (a run id) rather than the SDK's per-request ones.
  client.setNotificationHandler('notifications/progress', (n) => {
    const { progressToken, progress, total, message } = n.params;
    fire(owner, handlers.progress, {
      progressToken: String(progressToken),
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message !== undefined ? { message } : {}),
    });
  });
  client.setNotificationHandler(TASKS_NOTIFICATION, { params: DetailedTaskSchema }, (params) =>
    owner.taskPush.deliver(params as DetailedTask),
  );
  client.setNotificationHandler('notifications/message', (n) => {
    // `enableServerLogs: false` holds on both eras: a 2025 server logs without being asked to.
    if (owner.definition.enableServerLogs === false) return;
    const { level, data, logger } = n.params;
    owner.emit({
      level,
      message: typeof data === 'string' ? data : JSON.stringify(data),
      timestamp: new Date(),
      serverName: owner.name,
      details: { source: 'server', ...(logger ? { logger } : {}), data },
    });
  });
}

/**
 * `elicitation/create` to the owner's current `inputRequests` handler. On 2026-07-28 an answer
 * other than accept rejects with MCP_CLIENT_INPUT_REQUEST_DECLINED naming the action.
 */
function routeInputRequests(client: Client, owner: ClientOwner): void {
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const handler = owner.inputRequests;
    if (!handler)
      throw new Error(
        `MCP server '${owner.name}' asked for user input but no inputRequests handler is configured`,
      );
    const result = await handler({
      key: String(ctx.mcpReq.id),
      params: request.params as Parameters<typeof handler>[0]['params'],
      signal: ctx.mcpReq.signal,
    });
    if (result.action !== 'accept' && client.getProtocolEra() === 'modern') {
      throw mcpError(
        MCPErrorCode.CLIENT_INPUT_REQUEST_DECLINED,
        `MCP server '${owner.name}': the input request was ${result.action === 'decline' ? 'declined' : 'cancelled'}`,
        { server: owner.name, action: result.action },
      );
    }
    return result;
  });
}

/**
 * `sampling/createMessage` and `roots/list` to the owner's answers: a 2025 server's requests, or
 * 2026-07-28 input requests the SDK fulfils before retrying the call that got them. A 2025 server
 * is answered a failure as a protocol error (forLegacyServer), which is logged here too (a denial
 * is not a failure); on 2026-07-28 the failure ends the call.
 */
function routeAnswers(client: Client, owner: ClientOwner): void {
  const { sampler, roots } = owner.answers;
  const answering = async <T>(what: string, answer: () => Promise<T>): Promise<T> => {
    try {
      return await answer();
    } catch (error) {
      if (client.getProtocolEra() !== 'legacy') throw error;
      const told = forLegacyServer(error);
      if (told.code !== SAMPLING_REJECTED.code) owner.log('warning', `${what} failed: ${messageOf(error)}`);
      throw told;
    }
  };
  const signalOf = (ctx: { mcpReq: { signal: AbortSignal } }) =>
    AbortSignal.any([ctx.mcpReq.signal, owner.closedSignal]);
  if (sampler)
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      answering('answering sampling/createMessage', () => sampler.answer(request.params, signalOf(ctx))),
    );
  if (roots) {
    roots.attach(client);
    client.setRequestHandler('roots/list', (_request, ctx) =>
      answering('answering roots/list', async () => ({ roots: await roots.list(signalOf(ctx)) })),
    );
  }
}
