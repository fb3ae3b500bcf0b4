/**
 * The `resources`, `prompts`, `tools` and `progress` properties of MCPClient:
 * thin per-server operations over ServerConnection, fan-outs for the listings, and handler
 * registration that survives reconnects.
 */
import type { Client } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../errors.js';
import type { ServerConnection } from './connection.js';
import { type FanOutResult, fanOut } from './fan-out.js';
import { listVersionedPrompts } from './prompt-listing.js';
import type {
  MCPClientProgress,
  MCPClientPrompts,
  MCPClientResources,
  MCPClientTools,
  WithErrorsOptions,
} from './types.js';

export interface ConnectionLookup {
  names(): string[];
  get(serverName: string): ServerConnection;
}

/** A failed operation on one server as a MastraError that names the server and what was done. */
export function wrap(
  id: MCPErrorCode,
  what: string,
  connection: ServerConnection,
  error: unknown,
  details = {},
) {
  return mcpError(
    id,
    `MCP server '${connection.name}': ${what} failed: ${connection.describeFailure(error)}`,
    { server: connection.name, ...details },
    error,
  );
}

type Listing<T> = (
  client: Client,
  params: { _meta: Record<string, unknown> },
  options: { timeout: number; signal?: AbortSignal },
) => Promise<T[]>;

/**
 * One server's listing: a server without the capability has an empty list, the others are asked
 * with the server's request `_meta` and timeout. `signal` (a fan-out deadline) abandons it.
 */
function listOn<T>(capability: 'resources' | 'prompts', list: Listing<T>) {
  return (connection: ServerConnection, signal?: AbortSignal): Promise<T[]> =>
    connection.run(
      async (client) =>
        client.getServerCapabilities()?.[capability]
          ? list(
              client,
              { _meta: connection.requestMeta() ?? {} },
              { timeout: connection.timeout, ...(signal ? { signal } : {}) },
            )
          : [],
      null,
      signal,
    );
}

export const listResourcesOn = listOn('resources', async (client, params, options) => {
  return (await client.listResources(params, options)).resources;
});
const listTemplatesOn = listOn('resources', async (client, params, options) => {
  return (await client.listResourceTemplates(params, options)).resourceTemplates;
});
export const listPromptsOn = listOn('prompts', listVersionedPrompts);

/** One listing across every server, concurrently, with per-server errors. */
function listEverywhere<T>(
  lookup: ConnectionLookup,
  listOne: (connection: ServerConnection, signal?: AbortSignal) => Promise<T[]>,
) {
  return (options?: WithErrorsOptions) =>
    fanOut(lookup.names(), (name, signal) => listOne(lookup.get(name), signal), options, lookup.get);
}

/** Registers a handler on a server and, on 2026-07-28, widens its listen stream to match. */
export async function addHandler<T>(connection: ServerConnection, set: Set<T>, handler: T): Promise<void> {
  set.add(handler);
  if (connection.connected) await connection.syncListen();
}

/** Removes a handler; on 2026-07-28 the listen stream narrows (or closes) to match. */
export async function removeHandler<T>(connection: ServerConnection, set: Set<T>, handler: T): Promise<void> {
  if (set.delete(handler) && connection.connected) await connection.syncListen();
}

export function resourceActions(lookup: ConnectionLookup): MCPClientResources {
  const listAll = listEverywhere(lookup, listResourcesOn);
  const templatesAll = listEverywhere(lookup, listTemplatesOn);
  const rename = <T, K extends string>(result: FanOutResult<T>, key: K) => {
    const { values, ...rest } = result;
    return { [key]: values, ...rest } as { [P in K]: Record<string, T> } & Omit<FanOutResult<T>, 'values'>;
  };
  return {
    list: async () => (await listAll()).values,
    listWithErrors: async (options?: WithErrorsOptions) => rename(await listAll(options), 'resources'),
    templates: async () => (await templatesAll()).values,
    templatesWithErrors: async (options?: WithErrorsOptions) =>
      rename(await templatesAll(options), 'templates'),
    read: async (serverName, uri) => {
      const connection = lookup.get(serverName);
      try {
        const meta = connection.requestMeta();
        return await connection.run((client) =>
          client.readResource({ uri, ...(meta ? { _meta: meta } : {}) }, { timeout: connection.timeout }),
        );
      } catch (error) {
        throw wrap(MCPErrorCode.CLIENT_READ_RESOURCE_FAILED, `reading resource '${uri}'`, connection, error, {
          uri,
        });
      }
    },
    subscribe: async (serverName: string, uri: string): Promise<void> => {
      const connection = lookup.get(serverName);
      const client = await connection.get();
      if (!client.getServerCapabilities()?.resources?.subscribe) {
        // A serverless MCPServer, for one: nothing can reach the client after its answer.
        const revision =
          connection.era === 'modern' ? '' : ` (it negotiated revision ${connection.protocolVersion})`;
        throw mcpError(
          MCPErrorCode.CLIENT_SUBSCRIBE_RESOURCE_FAILED,
          `MCP server '${serverName}' does not offer resource subscriptions${revision} (its capabilities have no resources.subscribe), so no update to '${uri}' could ever arrive`,
          { server: serverName, uri, ...(revision ? { protocolVersion: connection.protocolVersion } : {}) },
        );
      }
      connection.subscribedUris.add(uri);
      try {
        // 2026-07-28: the managed listen stream; 2025: resources/subscribe on the session.
        const listen = await connection.syncListen();
        if (connection.era === 'modern' && !listen?.honoredFilter.resourceSubscriptions?.includes(uri)) {
          throw new Error(`the server did not honour a subscription to '${uri}'`);
        }
      } catch (error) {
        connection.subscribedUris.delete(uri);
        await connection.syncListen().catch(() => {});
        throw wrap(
          MCPErrorCode.CLIENT_SUBSCRIBE_RESOURCE_FAILED,
          `subscribing to '${uri}'`,
          connection,
          error,
          {
            uri,
          },
        );
      }
    },
    unsubscribe: async (serverName: string, uri: string): Promise<void> => {
      const connection = lookup.get(serverName);
      if (!connection.subscribedUris.delete(uri)) return;
      if (connection.connected) await connection.syncListen();
    },
    onUpdated: (serverName: string, handler: (params: { uri: string }) => void) => {
      const connection = lookup.get(serverName);
      return addHandler(connection, connection.handlers.resourceUpdated, handler);
    },
    onListChanged: (serverName: string, handler: () => void) => {
      const connection = lookup.get(serverName);
      return addHandler(connection, connection.handlers.resourcesChanged, handler);
    },
  };
}

export function promptActions(lookup: ConnectionLookup): MCPClientPrompts {
  const listAll = listEverywhere(lookup, listPromptsOn);
  return {
    list: async () => (await listAll()).values,
    listWithErrors: async (options?: WithErrorsOptions) => {
      const { values, ...rest } = await listAll(options);
      return { prompts: values, ...rest };
    },
    get: async ({ serverName, name, args, version }) => {
      const connection = lookup.get(serverName);
      try {
        const meta = connection.requestMeta();
        // The listing runs alongside, for the v1 MCPClient reference's `prompt` (the listed prompt).
        const listed = listPromptsOn(connection).catch(() => []);
        const result = await connection.run((client) =>
          client.getPrompt(
            {
              name,
              // Sent as given (the MCPClient reference accepts any value); a server that wants strings
              // answers -32602.
              ...(args ? { arguments: args as Record<string, string> } : {}),
              ...(version !== undefined ? { version } : {}),
              ...(meta ? { _meta: meta } : {}),
            },
            { timeout: connection.timeout },
          ),
        );
        const prompt = (await listed).find(
          (p) => p.name === name && (version === undefined || p.version === version),
        );
        return {
          ...result,
          prompt: prompt ?? {
            name,
            ...(version !== undefined ? { version } : {}),
            ...(result.description ? { description: result.description } : {}),
          },
        };
      } catch (error) {
        throw wrap(MCPErrorCode.CLIENT_GET_PROMPT_FAILED, `getting prompt '${name}'`, connection, error, {
          prompt: name,
        });
      }
    },
    onListChanged: (serverName: string, handler: () => void) => {
      const connection = lookup.get(serverName);
      return addHandler(connection, connection.handlers.promptsChanged, handler);
    },
  };
}

export function toolActions(lookup: ConnectionLookup): MCPClientTools {
  return {
    onListChanged: (serverName: string, handler: () => void) => {
      const connection = lookup.get(serverName);
      return addHandler(connection, connection.handlers.toolsChanged, handler);
    },
  };
}

export function progressActions(lookup: ConnectionLookup): MCPClientProgress {
  return {
    onUpdate: async (serverName, handler) => {
      lookup.get(serverName).handlers.progress.add(handler);
    },
  };
}
