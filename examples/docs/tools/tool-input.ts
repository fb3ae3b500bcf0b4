import { createTool } from '@mastra/core/tools';
import type { MCPToolContext } from 'mastra-mcp';
import { z } from 'zod';

export const summarizeWorkspace = createTool({
  id: 'summarizeWorkspace',
  description: "Summarizes the user's workspace with the user's own model.",
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    const mcp = context.mcp as MCPToolContext | undefined;
    if (!mcp) return 'Call me through MCP.';
    // Asked together: on 2026-07-28 both go out in one input_required round, keyed as named here.
    const [{ roots }, consent] = await Promise.all([
      mcp.roots.list({ key: 'workspace' }),
      mcp.elicitation.sendRequest({
        key: 'consent',
        message: 'Send a summary of your workspace to your model?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }),
    ]);
    if (consent.action !== 'accept' || consent.content?.ok !== true) return 'Not summarized.';

    const answer = await mcp.sampling.createMessage({
      key: 'summary',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Summarize a workspace of ${roots.map((r) => r.uri).join(', ')}` },
        },
      ],
      maxTokens: 200,
    });
    return answer.content.type === 'text'
      ? answer.content.text
      : `(${answer.content.type} from ${answer.model})`;
  },
});
