/**
 * Fine-grained authorization (Mastra FGA) for an MCPServer's `tools/list` and `tools/call`, the
 * way @mastra/core authorizes its own tool runs. When the Mastra instance the server is registered
 * on has an FGA provider (`mastra.getServer().fga`):
 *
 * - the caller is `requestContext.get('user')`; when absent it comes from the server's
 *   `mapAuthInfoToUser({ authInfo, extra, requestContext })` and is stored back as 'user', so the
 *   tool (and an agent or workflow behind it) runs with it;
 * - each tool is checked with core's `requireFGA` for resource `{ type: 'tool', id:
 *   getMCPToolFGAResourceId(serverId, toolName) }` and permission `tools:execute`, after the
 *   server's `fga.resourceMapping.tool` (or `.tools`) and `fga.permissionMapping` overrides;
 * - no user means denied (core fails closed); `tools/list` shows only tools the caller may call,
 *   and a denied `tools/call` never runs the tool.
 *
 * Without a provider nothing is checked. Core's EE module is imported only when a provider exists.
 */
import type { Mastra } from '@mastra/core/mastra';
import type { MCPAuthInfoToUserMapper, MCPServerFGAConfig } from '@mastra/core/mcp';
import type { RequestContext } from '@mastra/core/request-context';
import type { MCPRequestExtra } from '../types.js';

type FGAProvider = NonNullable<NonNullable<ReturnType<Mastra['getServer']>>['fga']>;

export interface ToolAuthorizationOptions {
  /** The server's id and name, read per check (Mastra may assign the id at registration). */
  server(): { id: string; name: string };
  mastra(): Mastra | undefined;
  mapAuthInfoToUser?: MCPAuthInfoToUserMapper | undefined;
  fga?: MCPServerFGAConfig | undefined;
}

/** Core's marker for a denial; matched by name so a second copy of @mastra/core still counts. */
export function isFGADenied(error: unknown): error is Error & { status?: number } {
  return error instanceof Error && error.name === 'FGADeniedError';
}

export class ToolAuthorization {
  constructor(private readonly options: ToolAuthorizationOptions) {}

  /** The Mastra instance's FGA provider, when the server is registered on one that has it. */
  provider(): FGAProvider | undefined {
    return this.options.mastra()?.getServer?.()?.fga;
  }

  /**
   * The caller: `requestContext.get('user')`, or what `mapAuthInfoToUser` makes of the request's
   * auth info (stored into `requestContext` as 'user').
   */
  async resolveUser(requestContext: RequestContext, extra: MCPRequestExtra): Promise<unknown> {
    const existing = requestContext.get('user');
    if (existing) return existing;
    const { mapAuthInfoToUser } = this.options;
    if (!mapAuthInfoToUser || !extra.authInfo) return undefined;
    const user = await mapAuthInfoToUser({
      authInfo: extra.authInfo,
      extra: extra as unknown as Record<string, unknown>,
      requestContext,
    });
    if (user) requestContext.set('user', user);
    return user ?? undefined;
  }

  /** Throws core's FGADeniedError when `user` may not call `toolName`. */
  private async require(
    provider: FGAProvider,
    toolName: string,
    user: unknown,
    requestContext: RequestContext,
  ): Promise<void> {
    const { getMCPToolFGAResourceId, requireFGA, MastraFGAPermissions } = await import('./core-fga.js');
    const { fga } = this.options;
    const { id: serverId, name: serverName } = this.options.server();
    const toolResourceId = getMCPToolFGAResourceId(serverId, toolName);
    const mapping = fga?.resourceMapping?.tool ?? fga?.resourceMapping?.tools;
    const resource = mapping
      ? {
          type: mapping.fgaResourceType,
          id: mapping.deriveId?.({ user, resourceId: toolResourceId, requestContext }) ?? toolResourceId,
        }
      : { type: 'tool', id: toolResourceId };
    const permission =
      fga?.permissionMapping?.[MastraFGAPermissions.TOOLS_EXECUTE] ?? MastraFGAPermissions.TOOLS_EXECUTE;
    await requireFGA({
      fgaProvider: provider,
      user,
      resource,
      permission,
      requestContext,
      context: { resourceId: toolResourceId },
      metadata: { mcpServerId: serverId, mcpServerName: serverName, toolName },
    });
  }

  /** `tools/list`: the tools the caller may call (all of them without a provider). */
  async visible<T extends { name: string }>(
    tools: T[],
    requestContext: RequestContext,
    extra: MCPRequestExtra,
  ): Promise<T[]> {
    const provider = this.provider();
    if (!provider) return tools;
    const user = await this.resolveUser(requestContext, extra);
    const allowed = await Promise.all(
      tools.map(async (tool) => {
        try {
          await this.require(provider, tool.name, user, requestContext);
          return true;
        } catch (error) {
          if (isFGADenied(error)) return false;
          throw error;
        }
      }),
    );
    return tools.filter((_tool, index) => allowed[index]);
  }

  /**
   * `tools/call`: puts the caller into `requestContext`, then returns why the call is refused, or
   * undefined when it may run. Errors other than a denial (a failing provider) propagate.
   */
  async refusal(
    toolName: string,
    requestContext: RequestContext,
    extra: MCPRequestExtra,
  ): Promise<string | undefined> {
    const user = await this.resolveUser(requestContext, extra);
    const provider = this.provider();
    if (!provider) return undefined;
    try {
      await this.require(provider, toolName, user, requestContext);
      return undefined;
    } catch (error) {
      if (!isFGADenied(error)) throw error;
      return `Tool '${toolName}' is not permitted for this caller: ${error.message}`;
    }
  }

  /** Direct `executeTool()` (Mastra's server routes): throws the denial as core does. */
  async requireDirect(toolName: string, requestContext: RequestContext): Promise<void> {
    const provider = this.provider();
    if (!provider) return;
    await this.require(provider, toolName, requestContext.get('user'), requestContext);
  }
}
