import { createTool } from '@mastra/core/tools';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

const calculate = createTool({
  id: 'calculate',
  description: 'Adds two numbers and shows them in an interactive calculator',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  // The link to the view; the flat legacy key `_meta['ui/resourceUri']` is accepted too.
  mcp: { _meta: { ui: { resourceUri: 'ui://calculator/main' } } },
  execute: async ({ a, b }) => ({
    content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }], // what text-only hosts show
    structuredContent: { result: a + b },
  }),
});

export const calculator = new MCPServer({
  name: 'Calculator',
  version: '1.0.0',
  tools: { calculate },
  appResources: {
    'ui://calculator/main': {
      name: 'Interactive Calculator',
      htmlPath: 'dist/calculator.html', // read once, in this constructor
      meta: {
        csp: { connectDomains: ['https://api.example.com'] },
        permissions: { clipboardWrite: {} },
        prefersBorder: true,
      },
    },
  },
});
