/**
 * The demo's own MCPServer: a small restaurant ("Demo Kitchen") with tools, an agent, a workflow,
 * resources and versioned prompts. Everything is deterministic: the agent runs on a mock model.
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';
import {
  MCPServer,
  type MCPServerPrompts,
  type MCPServerResources,
  type MCPToolContext,
} from '../src/index.js';

/** Output schema -> the client gets `structuredContent` next to the text. */
export const weatherTool = createTool({
  id: 'getWeather',
  description: 'Current weather on the terrace of one of our restaurants.',
  inputSchema: z.object({ city: z.enum(['Lisbon', 'Oslo']) }),
  outputSchema: z.object({ city: z.string(), tempC: z.number(), sky: z.string(), terraceOpen: z.boolean() }),
  mcp: { annotations: { readOnlyHint: true, title: 'Terrace weather' } },
  execute: async ({ city }) =>
    city === 'Lisbon'
      ? { city, tempC: 24, sky: 'sunny', terraceOpen: true }
      : { city, tempC: 3, sky: 'snow', terraceOpen: false },
});

/** Reports progress (`context.mcp.progress`) and logs (`context.mcp.log`) while it works. */
export const prepTool = createTool({
  id: 'prepIngredients',
  description: 'Preps the ingredients of a dish, reporting progress per ingredient.',
  inputSchema: z.object({ dish: z.string(), ingredients: z.array(z.string()).min(1) }),
  execute: async ({ dish, ingredients }, context) => {
    const mcp = context?.mcp as MCPToolContext | undefined;
    await mcp?.log('info', `prepping ${dish}`, { ingredients: ingredients.length });
    for (const [index, ingredient] of ingredients.entries()) {
      await mcp?.progress({ progress: index + 1, total: ingredients.length, message: ingredient });
    }
    await mcp?.log('debug', `${dish} ready for the pass`);
    return `${dish}: ${ingredients.length} ingredients prepped`;
  },
});

/** Asks the caller for details with `context.mcp.elicitation.sendRequest`. */
export const bookingTool = createTool({
  id: 'bookTable',
  description: 'Books a table, asking the guest for the booking details.',
  inputSchema: z.object({ time: z.string() }),
  execute: async ({ time }, context) => {
    const mcp = context?.mcp as MCPToolContext | undefined;
    if (!mcp) return 'bookTable needs an MCP caller to ask for the booking details';
    const answer = await mcp.elicitation.sendRequest({
      message: `Who is the table at ${time} for?`,
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name' },
          guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
        },
        required: ['name', 'guests'],
      },
    });
    if (answer.action !== 'accept')
      return `booking ${answer.action === 'decline' ? 'declined' : 'cancelled'}`;
    const { name, guests } = answer.content as { name: string; guests: number };
    return `table for ${guests} at ${time} booked for ${name}`;
  },
});

/** Added at runtime with `server.toolActions.add()`. */
export const specialsTool = createTool({
  id: 'todaysSpecial',
  description: "Names today's special.",
  inputSchema: z.object({}),
  execute: async () => 'mushroom risotto',
});

/** A deterministic model: it answers with the question it was asked. */
function conciergeModel() {
  return new MockLanguageModelV2({
    modelId: 'concierge-mock',
    doGenerate: async ({ prompt }) => {
      const lastUser = [...prompt].reverse().find((message) => message.role === 'user');
      const question =
        lastUser?.role === 'user'
          ? lastUser.content
              .map((part) => (part.type === 'text' ? part.text : ''))
              .join(' ')
              .trim()
          : '';
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason: 'stop',
        usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
        content: [{ type: 'text', text: `For "${question}" I recommend the window table at 20:00.` }],
        warnings: [],
      };
    },
  });
}

export const conciergeAgent = new Agent({
  id: 'concierge',
  name: 'Concierge',
  description: 'Answers questions about tables, opening hours and the menu.',
  instructions: 'You are the concierge of Demo Kitchen.',
  model: conciergeModel(),
});

const lineItem = z.object({ dish: z.string(), price: z.number(), qty: z.number().int().min(1) });

const priceLines = createStep({
  id: 'price-lines',
  inputSchema: z.object({ items: z.array(lineItem) }),
  outputSchema: z.object({ subtotal: z.number(), count: z.number() }),
  execute: async ({ inputData }) => ({
    subtotal: inputData.items.reduce((sum, item) => sum + item.price * item.qty, 0),
    count: inputData.items.reduce((sum, item) => sum + item.qty, 0),
  }),
});

const addService = createStep({
  id: 'add-service',
  inputSchema: z.object({ subtotal: z.number(), count: z.number() }),
  outputSchema: z.object({
    dishes: z.number(),
    subtotal: z.number(),
    service: z.number(),
    total: z.number(),
  }),
  execute: async ({ inputData }) => {
    const service = Math.round(inputData.subtotal * 10) / 100;
    return {
      dishes: inputData.count,
      subtotal: inputData.subtotal,
      service,
      total: inputData.subtotal + service,
    };
  },
});

export const quoteWorkflow = createWorkflow({
  id: 'quote',
  description: 'Prices an order and adds 10% service.',
  inputSchema: z.object({ items: z.array(lineItem) }),
  outputSchema: z.object({
    dishes: z.number(),
    subtotal: z.number(),
    service: z.number(),
    total: z.number(),
  }),
})
  .then(priceLines)
  .then(addService)
  .commit();

/** A 1x1 PNG. */
const LOGO_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const DISHES: Record<string, string> = {
  risotto: 'Mushroom risotto, parmesan, thyme.',
  ribs: 'Slow-cooked ribs, smoked paprika glaze.',
  ramen: 'Shoyu ramen, soft egg, nori.',
  tart: 'Lemon tart, burnt meringue.',
};

export const resources: MCPServerResources = {
  listResources: async () => [
    { uri: 'kitchen://menu/today', name: "Today's menu", mimeType: 'text/markdown' },
    { uri: 'kitchen://logo.png', name: 'Logo', mimeType: 'image/png' },
  ],
  getResourceContent: async ({ uri }) => {
    if (uri === 'kitchen://menu/today') return { text: '# Today\n- risotto\n- ribs\n- tart' };
    if (uri === 'kitchen://logo.png') return { blob: LOGO_PNG };
    const dish = /^kitchen:\/\/dishes\/([a-z]+)$/.exec(uri)?.[1];
    if (dish && DISHES[dish]) return { text: DISHES[dish], mimeType: 'text/plain' };
    throw new Error(`no such resource: ${uri}`);
  },
  resourceTemplates: async () => [
    { uriTemplate: 'kitchen://dishes/{dish}', name: 'Dish card', mimeType: 'text/plain' },
  ],
  completeResourceTemplate: ({ argument }) =>
    Object.keys(DISHES).filter((dish) => dish.startsWith(argument.value)),
};

const PROMPTS = [
  {
    name: 'plan-dinner',
    description: 'Plan a dinner menu',
    version: 'v1',
    arguments: [{ name: 'guests', description: 'How many people', required: true }],
  },
  {
    name: 'plan-dinner',
    description: 'Plan a dinner menu, with wine pairings',
    version: 'v2',
    arguments: [{ name: 'guests', description: 'How many people', required: true }],
  },
];

export const prompts: MCPServerPrompts = {
  listPrompts: async () => PROMPTS,
  getPromptMessages: async ({ name, version, args }) => {
    const prompt = PROMPTS.find((p) => p.name === name && p.version === (version ?? 'v1'));
    if (!prompt) throw new Error(`no prompt ${name}@${version}`);
    const pairing = prompt.version === 'v2' ? ', with a wine pairing for each course' : '';
    return {
      prompt,
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Plan a three-course dinner for ${args?.guests} guests${pairing}.` },
        },
      ],
    };
  },
  completePromptArgument: ({ argument }) =>
    ['2', '4', '6', '8', '12'].filter((n) => n.startsWith(argument.value)),
};

export function createKitchenServer(): MCPServer {
  return new MCPServer({
    id: 'demo-kitchen',
    name: 'Demo Kitchen',
    version: '1.0.0',
    description: 'Tools, an agent, a workflow, resources and prompts of a small restaurant',
    instructions: 'Ask the concierge first; book tables with bookTable.',
    tools: { getWeather: weatherTool, prepIngredients: prepTool, bookTable: bookingTool },
    agents: { concierge: conciergeAgent },
    workflows: { quote: quoteWorkflow },
    resources,
    prompts,
  });
}
