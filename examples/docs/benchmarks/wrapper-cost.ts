import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { makeCoreTool } from '@mastra/core/utils';
import { z } from 'zod';

const tool = createTool({
  id: 'noop',
  description: 'x',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});
const wrapped = makeCoreTool(tool, {
  name: 'noop',
  requestContext: new RequestContext(),
  agentId: 'a',
  agentName: 'a',
});
await wrapped.execute?.(
  { text: 'hi' },
  { toolCallId: 'c1', messages: [], abortSignal: new AbortController().signal },
);
