import { MCPClient } from 'mastra-mcp';

export const mcp = new MCPClient({
  servers: {
    reports: {
      url: new URL('https://reports.example.com/mcp'),
      // Answers the questions a task asks, as for direct input requests
      inputRequests: async ({ params }) => ({
        action: 'accept',
        content: { drafts: params.message.includes('drafts') },
      }),
    },
  },
});

// Inside an agent: the tool's execute follows a task to its end; its status messages arrive here
await mcp.progress.onUpdate('reports', (update) => console.log(update.message));

// Outliving the process: keep the task id, come back to it later (another process may)
const started = await mcp.tasks.start('reports', 'export_report', { month: '2026-11' });
if (started.taskId !== undefined) {
  const task = await mcp.tasks.get('reports', started.taskId); // working, input_required, ...
  console.log(task.status, task.statusMessage);
  const result = await mcp.tasks.wait('reports', started.taskId, { signal: AbortSignal.timeout(600_000) });
  console.log(result.content);
} else {
  console.log('answered at once', started.result.content);
}
