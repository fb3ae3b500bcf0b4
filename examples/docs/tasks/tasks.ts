import { createTool } from '@mastra/core/tools';
import { InMemoryMCPTaskStore, MCPServer } from 'mastra-mcp';
import { z } from 'zod';

const exportReport = createTool({
  id: 'export_report',
  description: 'Builds a large report',
  inputSchema: z.object({ month: z.string() }),
  execute: async ({ month }, context) => {
    const mcp = context?.mcp;
    // Progress and log lines become the task's statusMessage
    await mcp?.progress?.({ progress: 1, total: 3, message: `collecting ${month}` });
    // Inside a task, a question is one of its inputRequests, answered with tasks/update
    const answer = await mcp?.elicitation.sendRequest({
      message: `Include drafts in the ${month} report?`,
      requestedSchema: { type: 'object', properties: { drafts: { type: 'boolean' } }, required: ['drafts'] },
    });
    // tasks/cancel (and the TTL, and close()) abort this signal
    mcp?.extra.signal?.throwIfAborted();
    return `report for ${month}${answer?.content?.drafts ? ' with drafts' : ''}`;
  },
});

export const reports = new MCPServer({
  name: 'Reports',
  version: '1.0.0',
  tools: { exportReport },
  tasks: {
    // Derived ask_<agent> and run_<workflow> tools are 'optional' by default, others 'forbidden'
    tools: { exportReport: 'optional' },
    store: new InMemoryMCPTaskStore({ maxTasks: 10_000 }),
    ttlMs: 60 * 60 * 1000, // kept an hour from creation; null for no TTL
    pollIntervalMs: 1000, // suggested to clients
    maxTasks: 1000, // unfinished tasks on this server
    maxTasksPerPrincipal: 100, // per token subject (anonymous callers share one budget)
    maxListenTaskIds: 1000, // task ids one subscriptions/listen request may follow
  },
});
