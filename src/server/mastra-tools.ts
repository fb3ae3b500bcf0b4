/**
 * Keeps the tool registry of the Mastra instance an MCPServer is registered on in step with the
 * server's explicit tools. The rule is start-up registration's (MCPServerBase.__registerMastra): a
 * tool with an `id` property is registered under that id (under its record key when the id is not
 * a string); a tool without one is not registered. An occupied key is left alone, so this server
 * only ever removes entries it added, and only while they still hold the tool it put there.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import type { Mastra } from '@mastra/core/mastra';

/** The Mastra registry key of a server tool, or undefined when start-up registration skips it. */
function mastraKey(name: string, tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null || !('id' in tool)) return undefined;
  return typeof tool.id === 'string' ? tool.id : name;
}

export class MastraToolSync {
  private mastra: Mastra | undefined;
  /** Server tool name -> the key and tool this server added to the Mastra registry. */
  private readonly added = new Map<string, { key: string; tool: unknown }>();

  constructor(
    private readonly serverId: () => string,
    private readonly logger: () => IMastraLogger,
  ) {}

  /** Registration on `mastra`: its registry gets the server's current tools. */
  attach(mastra: Mastra, tools: Record<string, unknown> | undefined): void {
    this.mastra = mastra;
    this.added.clear();
    this.add(tools ?? {});
  }

  /** Tools added (or replaced) on the server. */
  add(tools: Record<string, unknown>): void {
    const mastra = this.mastra;
    if (!mastra) return;
    for (const [name, tool] of Object.entries(tools)) {
      this.release(name);
      const key = mastraKey(name, tool);
      if (key === undefined) continue;
      const existing = (mastra.listTools() as Record<string, unknown> | undefined)?.[key];
      if (existing === undefined) {
        mastra.addTool(tool as Parameters<Mastra['addTool']>[0], key);
        this.added.set(name, { key, tool });
      } else if (existing !== tool) {
        this.logger().warn(
          `MCP server '${this.serverId()}': tool '${name}' is not in the Mastra tool registry because key '${key}' already holds another tool`,
        );
      }
    }
  }

  /** Tools removed from the server. */
  remove(names: string[]): void {
    for (const name of names) this.release(name);
  }

  private release(name: string): void {
    const entry = this.added.get(name);
    if (!entry || !this.mastra) return;
    this.added.delete(name);
    const current = (this.mastra.listTools() as Record<string, unknown> | undefined)?.[entry.key];
    if (current === entry.tool) this.mastra.removeTool(entry.key);
  }
}
