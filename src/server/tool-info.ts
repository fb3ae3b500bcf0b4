/**
 * How a published tool looks to Mastra, for every MCPServerBase of this package: the
 * `getToolInfo()` / `getToolListInfo()` entries and the `InternalCoreTool` that `tools()` holds.
 * MCPServer builds both from its registry, a client server proxy from the upstream's `tools/list`;
 * one builder keeps the two servers describing a tool the same way.
 */
import type { InternalCoreTool, MCPToolProperties, MCPToolType } from '@mastra/core/tools';
import type { ToolInfo } from '../shared/tool-info.js';

export type { ToolInfo };

/** Marks `parameters` as an AI SDK schema holding JSON Schema, which Mastra uses as it is. */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** A tool's `tools/list` entry, as either SDK types it. */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: MCPToolProperties['annotations'];
  _meta?: Record<string, unknown> | undefined;
}

/** `getToolInfo()`'s entry for a listed tool. */
export function toolInfo(tool: ListedTool, toolType?: MCPToolType): ToolInfo {
  const info: ToolInfo = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.description !== undefined) info.description = tool.description;
  if (tool.outputSchema) info.outputSchema = tool.outputSchema;
  if (toolType) info.toolType = toolType;
  if (tool._meta) info._meta = tool._meta;
  return info;
}

/** How the `InternalCoreTool` runs, and what Mastra needs besides the listing. */
export interface CoreToolRun {
  execute: NonNullable<InternalCoreTool['execute']>;
  toolType?: MCPToolType | undefined;
  /** Carried to Mastra as `needsApproval` (a client tool's `requireApproval`). */
  needsApproval?: unknown;
}

/** A listed tool as the `InternalCoreTool` Mastra expects from an MCP server. */
export function coreTool(tool: ListedTool, run: CoreToolRun): InternalCoreTool {
  const core: InternalCoreTool & { needsApproval?: unknown } = {
    description: tool.description ?? '',
    parameters: {
      [AI_SDK_SCHEMA]: true,
      jsonSchema: tool.inputSchema,
    } as unknown as InternalCoreTool['parameters'],
    execute: run.execute,
    mcp: {
      ...(run.toolType ? { toolType: run.toolType } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(tool._meta ? { _meta: tool._meta } : {}),
    },
  };
  if (run.needsApproval) core.needsApproval = run.needsApproval;
  return core;
}
