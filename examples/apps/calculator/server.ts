/**
 * The MCP Apps example's server: one `calculate` tool linked to its view with
 * `_meta.ui.resourceUri`, and that view published as the `ui://calculator/main` app resource.
 * The view's HTML is passed in already bundled (see ../bundle.ts), so the server itself needs no
 * build step and the resource is one self-contained document.
 */
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { MCPServer } from '../../../src/index.js';

export const CALCULATOR_URI = 'ui://calculator/main';

const SYMBOLS = { add: '+', subtract: '−', multiply: '×', divide: '÷' } as const;

export const calculateTool = createTool({
  id: 'calculate',
  description:
    'Calculates num1 <operation> num2. Hosts that support MCP Apps show an interactive calculator.',
  inputSchema: z.object({
    num1: z.number(),
    num2: z.number(),
    operation: z.enum(['add', 'subtract', 'multiply', 'divide']),
  }),
  outputSchema: z.object({ expression: z.string(), result: z.number() }),
  mcp: { _meta: { ui: { resourceUri: CALCULATOR_URI } } },
  execute: async ({ num1, num2, operation }) => {
    if (operation === 'divide' && num2 === 0) {
      throw new Error('calculate: num2 must not be 0 when operation is "divide"');
    }
    const result =
      operation === 'add'
        ? num1 + num2
        : operation === 'subtract'
          ? num1 - num2
          : operation === 'multiply'
            ? num1 * num2
            : num1 / num2;
    return { expression: `${num1} ${SYMBOLS[operation]} ${num2}`, result };
  },
});

export function createCalculatorServer(appHtml: string): MCPServer {
  return new MCPServer({
    id: 'calculator',
    name: 'Calculator',
    version: '1.0.0',
    tools: { calculate: calculateTool },
    appResources: {
      [CALCULATOR_URI]: {
        name: 'Interactive Calculator',
        description: 'Enter two numbers and an operation; the server computes the result.',
        html: appHtml,
        // No network, no nested frames: the view talks only to its host, through postMessage.
        meta: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
      },
    },
  });
}
