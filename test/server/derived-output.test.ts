/**
 * What tools answer, the same on both eras over real HTTP: `run_<workflow>` advertises the
 * workflow's output schema (an object one) and answers with the run's output, structured;
 * `ask_<agent>` advertises `{ text: string }` and answers with the agent's text, as text and
 * structured; a tool without an output schema answers with its value's JSON as one text block and
 * no structured content. The SDK v1 client, which checks structured output against the advertised
 * schema, accepts them all; generated contracts give the derived tools real output types.
 */
import { createTool } from '@mastra/core/tools';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCPClient, MCPServer } from '../../src/index.js';
import { renderModule } from '../../src/typegen/render.js';
import { doublerWorkflow, helperAgent } from '../fixtures/tools.js';
import { connectHttp, type HttpHarness, serveHttp } from '../helpers.js';

const spell = createStep({
  id: 'spell',
  inputSchema: z.object({ value: z.number() }),
  outputSchema: z.string(),
  execute: async ({ inputData }) => (inputData.value === 42 ? 'forty-two' : 'some number'),
});
// Its output is a string: MCP carries structured content as an object, so it is text only.
const speller = createWorkflow({
  id: 'speller',
  description: 'Spells a number.',
  inputSchema: z.object({ value: z.number() }),
  outputSchema: z.string(),
})
  .then(spell)
  .commit();

const tools = {
  plain: createTool({
    id: 'plain',
    description: 'Returns an object, declaring no output schema',
    inputSchema: z.object({}),
    execute: async () => ({ a: 1, b: ['x'] }),
  }),
  words: createTool({
    id: 'words',
    description: 'Returns a string',
    inputSchema: z.object({}),
    execute: async () => 'just words',
  }),
  nothing: createTool({
    id: 'nothing',
    description: 'Returns nothing',
    inputSchema: z.object({}),
    execute: async () => undefined,
  }),
};

let server: MCPServer;
let http: HttpHarness;
beforeAll(async () => {
  server = new MCPServer({
    name: 'outputs',
    version: '1.0.0',
    tools,
    agents: { helper: helperAgent },
    workflows: { doubler: doublerWorkflow, speller },
  });
  http = await serveHttp(server);
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const CALLS: Record<string, Record<string, unknown>> = {
  run_doubler: { value: 21 },
  run_speller: { value: 42 },
  ask_helper: { message: 'question?' },
  plain: {},
  words: {},
  nothing: {},
};

/** What a tool answers, as the one documented shape (the era's envelope `_meta` left out). */
const EXPECTED: Record<string, { content: unknown[]; structuredContent?: unknown }> = {
  run_doubler: { content: [{ type: 'text', text: '{"doubled":42}' }], structuredContent: { doubled: 42 } },
  run_speller: { content: [{ type: 'text', text: 'forty-two' }] },
  ask_helper: {
    content: [{ type: 'text', text: 'The answer is 42.' }],
    structuredContent: { text: 'The answer is 42.' },
  },
  plain: { content: [{ type: 'text', text: '{"a":1,"b":["x"]}' }] },
  words: { content: [{ type: 'text', text: 'just words' }] },
  nothing: { content: [] },
};

/** The `output` type of `tool` in a generated module, its whitespace collapsed. */
function outputType(module: string, tool: string): string | undefined {
  const flat = module.replace(/\s+/g, ' ');
  const at = flat.indexOf(` ${tool}: {`);
  if (at < 0) return undefined;
  const start = flat.indexOf('output: ', at) + 'output: '.length;
  let depth = 0;
  for (let end = start; end < flat.length; end++) {
    const char = flat[end];
    if (char === '{') depth++;
    if (char === '}') depth--;
    if ((depth === 0 && char === '}') || (depth === 0 && char === ';')) {
      return flat.slice(start, char === ';' ? end : end + 1);
    }
  }
  return undefined;
}

type Caller = {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
};

async function callers(): Promise<[string, Caller][]> {
  const v1 = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  await v1.connect(new HttpTransportV1(http.mcpUrl));
  return [
    ['2025-11-25 (SDK v2)', await connectHttp(http.mcpUrl, 'legacy')],
    ['2026-07-28 (SDK v2)', await connectHttp(http.mcpUrl, 'modern')],
    ['2025 (SDK v1, checks structured output)', v1 as unknown as Caller],
  ];
}

describe('output schemas and result shapes', () => {
  it('are the same on both eras, and every client accepts them', async () => {
    for (const [era, client] of await callers()) {
      try {
        const listed = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
        expect(listed.ask_helper?.outputSchema, era).toEqual({
          type: 'object',
          properties: { text: { type: 'string', description: "The agent's answer" } },
          required: ['text'],
          additionalProperties: false,
        });
        expect(listed.run_doubler?.outputSchema, era).toMatchObject({
          type: 'object',
          properties: { doubled: { type: 'number' } },
          required: ['doubled'],
        });
        expect(listed.run_speller?.outputSchema, era).toBeUndefined();
        // No step of these workflows waits for anyone: no resume_ tool.
        expect(
          Object.keys(listed).filter((name) => name.startsWith('resume_')),
          era,
        ).toEqual([]);
        for (const [name, args] of Object.entries(CALLS)) {
          const { content, structuredContent, isError } = (await client.callTool({
            name,
            arguments: args,
          })) as {
            content: unknown[];
            structuredContent?: unknown;
            isError?: boolean;
          };
          expect({ content, structuredContent, isError }, `${era}: ${name}`).toEqual({
            structuredContent: undefined,
            isError: undefined,
            ...EXPECTED[name],
          });
        }
      } finally {
        await (client as unknown as { close(): Promise<void> }).close();
      }
    }
  });

  it('give the derived tools real output types in generated contracts', async () => {
    const mcp = new MCPClient({ id: `outputs-${Math.random()}`, servers: { outputs: { url: http.mcpUrl } } });
    try {
      const { text, failures } = renderModule(await mcp.listToolDefinitions());
      expect(failures).toEqual([]);
      const output = (tool: string) => outputType(text, tool);
      expect(output('ask_helper')).toBe("{ /** The agent's answer */ text: string; }");
      expect(output('run_doubler')).toBe('{ doubled: number }');
      expect(output('run_speller')).toBe('unknown');
    } finally {
      await mcp.disconnect();
    }
  });
});
