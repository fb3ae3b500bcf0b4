import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { MCPServer, type MCPTraceContext } from 'mastra-mcp';
import { z } from 'zod';

const lookup = createTool({
  id: 'lookup',
  description: 'Looks a record up.',
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }, context) => {
    // What the caller sent, validated; observability data only, never a reason to allow anything.
    const trace = context.requestContext?.get('traceContext') as MCPTraceContext | undefined;
    await context.mcp?.log?.('debug', 'lookup', { id, traceparent: trace?.traceparent });
    return { id };
  },
});

export const records = new MCPServer({ id: 'records', name: 'Records', version: '1.0.0', tools: { lookup } });

// `lookup` joins mastra.listTools() now, and toolActions.add()/remove() keep it in step. With
// observability configured, tools/call, resources/read and prompts/get run in request spans.
export const mastra = new Mastra({
  mcpServers: { records },
  observability: new Observability({ configs: { default: { serviceName: 'records' } } }),
});
