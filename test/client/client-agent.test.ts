import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { Agent } from '@mastra/core/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallingModel } from '../../examples/mock-model.js';
import { MCPClient, type MCPClientOptions, MCPServer } from '../../src/index.js';
import { clientTestTools } from '../fixtures/client-tools.js';
import { fullConfig } from '../fixtures/tools.js';
import { serveHttp } from '../helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The model answers with the whole tool result part, so errors are visible too. */
function model(
  toolName: string,
  input: Record<string, unknown>,
  prompts: LanguageModelV2CallOptions['prompt'][],
) {
  return toolCallingModel(toolName, input, {
    answer: (part) => JSON.stringify(part),
    onPrompt: (p) => prompts.push(p),
  });
}

async function setup(servers: (url: URL) => MCPClientOptions['servers']) {
  const server = new MCPServer(fullConfig({ tools: { ...fullConfig().tools, ...clientTestTools } }));
  const http = await serveHttp(server);
  const mcp = new MCPClient({
    id: `agent-${Math.random()}`,
    registerProcessHooks: false,
    servers: servers(http.mcpUrl),
  });
  cleanups.push(
    () => http.close(),
    () => server.close(),
    () => mcp.disconnect(),
  );
  return mcp;
}

describe('a Mastra Agent using MCPClient tools', () => {
  it('calls an MCP tool, gets structured output, reports progress and forwards trusted instructions', async () => {
    const mcp = await setup((url) => ({
      db: { url, forwardInstructions: true, enableProgressTracking: true },
      other: { url, protocolVersion: 'legacy' },
    }));
    const progress: number[] = [];
    await mcp.progress.onUpdate('db', (update) => progress.push(update.progress));
    const prompts: LanguageModelV2CallOptions['prompt'][] = [];
    const agent = new Agent({
      id: 'weather-agent',
      name: 'Weather Agent',
      instructions: 'Answer with the tool.',
      model: model('db_progressTool', { n: 2 }, prompts),
      tools: await mcp.listTools(),
    });
    const result = await agent.generate('count to two');
    expect(result.text).toContain('counted');
    expect(progress).toEqual([1, 2]);
    const system = JSON.stringify(prompts[0]?.filter((message) => message.role === 'system'));
    expect(system).toContain('Use the tools.');
    expect(system).toContain('db');
  });

  it('does not forward instructions by default', async () => {
    const mcp = await setup((url) => ({ quiet: { url } }));
    const prompts: LanguageModelV2CallOptions['prompt'][] = [];
    const agent = new Agent({
      id: 'quiet-agent',
      name: 'Quiet Agent',
      instructions: 'Answer with the tool.',
      model: model('quiet_weatherTool', { location: 'Rome' }, prompts),
      tools: await mcp.listTools(),
    });
    const result = await agent.generate('weather?');
    expect(result.text).toContain('Weather in Rome is sunny.');
    expect(JSON.stringify(prompts[0])).not.toContain('Use the tools.');
  });

  it('lets the model see an MCP tool error', async () => {
    const mcp = await setup((url) => ({ remote: { url } }));
    const prompts: LanguageModelV2CallOptions['prompt'][] = [];
    const agent = new Agent({
      id: 'error-agent',
      name: 'Error Agent',
      instructions: 'Answer with the tool.',
      model: model('remote_structuredError', {}, prompts),
      tools: await mcp.listTools(),
    });
    const result = await agent.generate('try it');
    expect(result.text).toContain('quota exceeded');
  });

  it('stops for approval before running a tool that needs it', async () => {
    const calls: string[] = [];
    const mcp = await setup((url) => ({
      guarded: {
        url,
        requireToolApproval: ({ toolName }) => {
          calls.push(toolName);
          return true;
        },
      },
    }));
    const prompts: LanguageModelV2CallOptions['prompt'][] = [];
    const agent = new Agent({
      id: 'guarded-agent',
      name: 'Guarded Agent',
      instructions: 'Answer with the tool.',
      model: model('guarded_deleteRepo', { name: 'prod' }, prompts),
      tools: await mcp.listTools(),
    });
    const result = await agent.generate('delete prod');
    expect(calls).toEqual(['deleteRepo']);
    // The run is suspended waiting for approval: the model was asked once and no tool result exists.
    expect(prompts).toHaveLength(1);
    expect(result.finishReason).toBe('suspended');
  });
});
