/**
 * Fixture for the official MCP conformance suite (`@modelcontextprotocol/conformance`): an
 * MCPServer exposing the tools, resources, resource templates, prompts and completions that the
 * suite's server scenarios call by name (and skills for the `sep-2640-skills-*` ones), served over Streamable HTTP at `/mcp` on 127.0.0.1, and
 * at `/mcp-v1` with the `startHTTP` options code written for the SDK v1 transport passes
 * (`enableDnsRebindingProtection`, `allowedHosts` with ports, `allowedOrigins` as full origins).
 *
 * Everything here uses MCPServer's public API only, the way a Mastra application would; nothing
 * works around MCPServer behaviour. `conformance/run.sh` starts it and runs the suite against it.
 *
 * Environment: `PORT` (default 0 = ephemeral), `CONFORMANCE_READY_FILE` (the served URL is
 * written there once the server listens, then the `/mcp-v1` URL on a second line).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createSkill } from '@mastra/core/skills';
import { createTool } from '@mastra/core/tools';
import { type CreateMessageResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  type ElicitationRequest,
  type MCPSamplingRequest,
  MCPServer,
  type MCPServerPrompts,
  type MCPServerResources,
  type MCPToolContext,
  type StreamableHTTPServerTransportOptions,
} from '../src/index.js';

/** A 1x1 red pixel. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono WAV file holding 8 samples of silence. */
function silentWav(): string {
  const samples = 8;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 0x80)]).toString('base64');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The MCP half of a tool's execution context, which MCPServer always provides. */
function mcpOf(context: unknown): MCPToolContext {
  const mcp = (context as { mcp?: MCPToolContext } | undefined)?.mcp;
  if (!mcp) throw new Error('this tool must be called through MCP');
  return mcp;
}

const noArguments = z.object({});

// ---------------------------------------------------------------------------------------------
// Tools (scenarios tools-*, elicitation-*, json-schema-2020-12, server-sse-*)
// ---------------------------------------------------------------------------------------------

const test_simple_text = createTool({
  id: 'test_simple_text',
  description: 'Returns a simple text response',
  inputSchema: noArguments,
  execute: async () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }),
});

const test_image_content = createTool({
  id: 'test_image_content',
  description: 'Returns image content (a 1x1 red PNG)',
  inputSchema: noArguments,
  execute: async () => ({
    content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }],
  }),
});

const test_audio_content = createTool({
  id: 'test_audio_content',
  description: 'Returns audio content (a short silent WAV)',
  inputSchema: noArguments,
  execute: async () => ({
    content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }],
  }),
});

const test_embedded_resource = createTool({
  id: 'test_embedded_resource',
  description: 'Returns an embedded resource',
  inputSchema: noArguments,
  execute: async () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }),
});

const test_multiple_content_types = createTool({
  id: 'test_multiple_content_types',
  description: 'Returns text, image and embedded resource content together',
  inputSchema: noArguments,
  execute: async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
});

const test_tool_with_logging = createTool({
  id: 'test_tool_with_logging',
  description: 'Sends three info log notifications while it runs',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    await mcp.log('info', 'Tool execution started');
    await sleep(50);
    await mcp.log('info', 'Tool processing data');
    await sleep(50);
    await mcp.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  },
});

/** server-stateless (2026-07-28): logs, so the suite can check nothing is sent without `logLevel`. */
const test_logging_tool = createTool({
  id: 'test_logging_tool',
  description: 'Sends an info log notification, then answers',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    await mcpOf(context).log('info', 'test_logging_tool ran');
    return 'logged';
  },
});

const test_error_handling = createTool({
  id: 'test_error_handling',
  description: 'Always fails',
  inputSchema: noArguments,
  execute: async () => {
    throw new Error('This tool intentionally returns an error for testing');
  },
});

const test_tool_with_progress = createTool({
  id: 'test_tool_with_progress',
  description: 'Reports progress 0, 50 and 100 of 100 when the request carries a progress token',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    await mcp.progress({ progress: 0, total: 100, message: 'Starting' });
    await sleep(50);
    await mcp.progress({ progress: 50, total: 100, message: 'Halfway' });
    await sleep(50);
    await mcp.progress({ progress: 100, total: 100, message: 'Done' });
    return 'Tool with progress executed successfully';
  },
});

const test_sampling = createTool({
  id: 'test_sampling',
  description: 'Asks the client to sample an LLM completion for the prompt',
  inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
  execute: async ({ prompt }, context) => {
    const result = await mcpOf(context).sampling.createMessage(sample(prompt, 100));
    return { content: [{ type: 'text', text: `LLM response: ${textOfSample(result)}` }] };
  },
});

/** A sampling request of one user message (under `key`, when given). */
const sample = (text: string, maxTokens: number, key?: string): MCPSamplingRequest => ({
  ...(key ? { key } : {}),
  messages: [{ role: 'user', content: { type: 'text', text } }],
  maxTokens,
});

/** The text of a sampling answer (its text blocks; other blocks by type). */
function textOfSample(result: CreateMessageResult): string {
  const content = Array.isArray(result.content) ? result.content : [result.content];
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

async function elicit(context: unknown, request: ElicitationRequest): Promise<string> {
  const result = await mcpOf(context).elicitation.sendRequest(request);
  return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

const test_elicitation = createTool({
  id: 'test_elicitation',
  description: 'Asks the user for a username and email address',
  inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
  execute: async ({ message }, context) => {
    const result = await mcpOf(context).elicitation.sendRequest({
      message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
  },
});

// 2026-07-28 (SEP-2322): on that revision `elicitation.sendRequest` (and `sampling.createMessage`,
// `roots.list`) suspends the run and the call answers `input_required` with every question of the
// round and MCPServer's signed request state; the retry resumes the same run (a retry with altered
// state is refused). The tools name their input requests with the suite's keys (`user_name`,
// `capital_question`, `client_roots`, ...); the others get generated ones.

const askName = (message: string, key?: string) => ({
  ...(key ? { key } : {}),
  message,
  requestedSchema: {
    type: 'object' as const,
    properties: { name: { type: 'string' as const } },
    required: ['name'],
  },
});

/** A tool that asks for a name (under `key`) and greets it: one `input_required` round on 2026-07-28. */
function greetingTool(id: string, description: string, key?: string) {
  return createTool({
    id,
    description,
    inputSchema: noArguments,
    execute: async (_input, context) => {
      const result = await mcpOf(context).elicitation.sendRequest(askName('What is your name?', key));
      return `Hello, ${String(result.content?.name ?? 'unknown')}!`;
    },
  });
}

const test_input_required_result_elicitation = greetingTool(
  'test_input_required_result_elicitation',
  'Asks for a name through input_required (key user_name) and greets it',
  'user_name',
);

const test_input_required_result_sampling = createTool({
  id: 'test_input_required_result_sampling',
  description: "Asks the client's model for the capital of France (key capital_question)",
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const answer = await mcpOf(context).sampling.createMessage(
      sample('What is the capital of France?', 100, 'capital_question'),
    );
    return `The model said: ${textOfSample(answer)}`;
  },
});

const test_input_required_result_list_roots = createTool({
  id: 'test_input_required_result_list_roots',
  description: "Lists the client's roots (key client_roots) and names them",
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const { roots } = await mcpOf(context).roots.list({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => `${root.name ?? ''} <${root.uri}>`).join(', ')}`;
  },
});

const test_input_required_result_multiple_inputs = createTool({
  id: 'test_input_required_result_multiple_inputs',
  description: 'Asks for a name, a sampled greeting and the roots at once: one input_required round',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    const [name, greeting, { roots }] = await Promise.all([
      mcp.elicitation.sendRequest(askName('What is your name?', 'user_name')),
      mcp.sampling.createMessage(sample('Generate a greeting', 50, 'greeting')),
      mcp.roots.list({ key: 'client_roots' }),
    ]);
    return `${textOfSample(greeting)} ${String(name.content?.name)} (${roots.length} roots)`;
  },
});

/**
 * Asks for whatever the client declared: a question it cannot be asked is refused at once
 * (-32021), and the tool goes on with the others, so the round carries only declared kinds.
 */
const test_input_required_result_capabilities = createTool({
  id: 'test_input_required_result_capabilities',
  description: 'Asks for a name and a sampled greeting, each only if the client declared it',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    const [name, greeting] = await Promise.allSettled([
      mcp.elicitation.sendRequest(askName('What is your name?', 'user_name')),
      mcp.sampling.createMessage(sample('Generate a greeting', 50, 'greeting')),
    ]);
    const said = greeting.status === 'fulfilled' ? textOfSample(greeting.value) : 'no greeting';
    const who = name.status === 'fulfilled' ? String(name.value.content?.name) : 'someone';
    return `${said}, ${who}`;
  },
});

/** server-stateless: needs sampling; a client that did not declare it gets -32021 (HTTP 400). */
const test_missing_capability = createTool({
  id: 'test_missing_capability',
  description: "Needs the client's sampling capability",
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const answer = await mcpOf(context).sampling.createMessage(sample('Say hello', 20));
    return textOfSample(answer);
  },
});
const test_input_required_result_tampered_state = greetingTool(
  'test_input_required_result_tampered_state',
  'Asks for a name; a retry with altered request state is refused by MCPServer',
);
/** server-stateless: the answer stream of a call that asks for input carries no server request. */
const test_streaming_elicitation = greetingTool(
  'test_streaming_elicitation',
  'Asks for a name; on 2026-07-28 the call answers input_required',
);

const test_input_required_result_request_state = createTool({
  id: 'test_input_required_result_request_state',
  description: 'Asks for a confirmation; answers state-ok once the signed request state verified',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const result = await mcpOf(context).elicitation.sendRequest({
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    // Reached only through a retry whose request state MCPServer verified and matched to this run.
    return `state-ok: action=${result.action}, ok=${String(result.content?.ok)}`;
  },
});

const test_input_required_result_multi_round = createTool({
  id: 'test_input_required_result_multi_round',
  description: 'Asks two questions, one round each',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    const first = await mcp.elicitation.sendRequest(askName('Step 1: What is your name?'));
    const second = await mcp.elicitation.sendRequest({
      message: 'Step 2: What is your favorite color?',
      requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
    });
    return `name=${String(first.content?.name)}, color=${String(second.content?.color)}`;
  },
});

const test_elicitation_sep1034_defaults = createTool({
  id: 'test_elicitation_sep1034_defaults',
  description: 'Elicits a form whose fields all carry default values (SEP-1034)',
  inputSchema: noArguments,
  execute: async (_input, context) =>
    elicit(context, {
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    }),
});

const test_elicitation_sep1330_enums = createTool({
  id: 'test_elicitation_sep1330_enums',
  description: 'Elicits a form with all five enum schema variants (SEP-1330)',
  inputSchema: noArguments,
  execute: async (_input, context) =>
    elicit(context, {
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: {
            type: 'string',
            description: 'Select one option',
            enum: ['option1', 'option2', 'option3'],
          },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            minItems: 1,
            maxItems: 3,
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    }),
});

/** Declared the way a Mastra user declares a tool from JSON Schema: `createTool` with the schema itself. */
const json_schema_2020_12_tool = createTool({
  id: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: {
      address: {
        $anchor: 'addressDef',
        type: 'object',
        properties: { street: { type: 'string' }, city: { type: 'string' } },
      },
    },
    properties: {
      name: { type: 'string' },
      address: { $ref: '#/$defs/address' },
      contactMethod: { type: 'string', enum: ['phone', 'email'] },
      phone: { type: 'string' },
      email: { type: 'string' },
    },
    // SEP-2106 vocabulary: at least one contact, and the one contactMethod names.
    allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
    if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a plain schema object
    then: { required: ['phone'] },
    else: { required: ['email'] },
    additionalProperties: false,
  } as unknown as z.ZodType<{
    name?: string;
    address?: { street?: string; city?: string };
    contactMethod?: 'phone' | 'email';
    phone?: string;
    email?: string;
  }>,
  execute: async (input) => ({
    content: [{ type: 'text', text: `JSON Schema 2020-12 tool called with ${JSON.stringify(input)}` }],
  }),
});

/**
 * SEP-2243: a client also sends `region` as the `Mcp-Param-Region` header, which MCPServer checks
 * against the body on 2026-07-28 (a missing, different or malformed header: 400 / -32020).
 */
const test_custom_header = createTool({
  id: 'test_custom_header',
  description: 'Echoes a region that the client also sends as the Mcp-Param-Region header',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
    required: ['region'],
  } as unknown as z.ZodType<{ region: string }>,
  execute: async ({ region }) => `region=${region}`,
});

/**
 * Used by `server-sse-polling`, which wants the tool to close its SSE stream mid-call so the
 * client resumes with Last-Event-ID. MCPServer gives tools no handle on the HTTP stream, so this
 * one only takes a moment and answers on the stream it was called on.
 */
const test_reconnection = createTool({
  id: 'test_reconnection',
  description: 'Takes a moment, then answers (the suite expects it to close the SSE stream mid-call)',
  inputSchema: noArguments,
  execute: async () => {
    await sleep(100);
    return 'Reconnection test completed successfully';
  },
});

// ---------------------------------------------------------------------------------------------
// Resources (scenarios resources-*)
// ---------------------------------------------------------------------------------------------

const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

const resources: MCPServerResources = {
  listResources: async () => [
    {
      uri: 'test://static-text',
      name: 'Static Text Resource',
      description: 'A static text resource for testing',
      mimeType: 'text/plain',
    },
    {
      uri: 'test://static-binary',
      name: 'Static Binary Resource',
      description: 'A static binary resource (1x1 PNG) for testing',
      mimeType: 'image/png',
    },
    {
      uri: 'test://watched-resource',
      name: 'Watched Resource',
      description: 'A resource clients may subscribe to',
      mimeType: 'text/plain',
    },
  ],
  getResourceContent: async ({ uri }) => {
    if (uri === 'test://static-text') return { text: 'This is the content of the static text resource.' };
    if (uri === 'test://static-binary') return { blob: RED_PIXEL_PNG };
    if (uri === 'test://watched-resource') return { text: 'Watched resource content' };
    const match = TEMPLATE.exec(uri);
    if (match) {
      const id = decodeURIComponent(match[1] as string);
      return {
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      };
    }
    throw new Error(`Unknown resource: ${uri}`);
  },
  resourceTemplates: async () => [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'Template Resource',
      description: 'A resource template with an id parameter',
      mimeType: 'application/json',
    },
  ],
  completeResourceTemplate: ({ argument }) =>
    ['1', '2', '3', '123'].filter((id) => id.startsWith(argument.value)),
};

// ---------------------------------------------------------------------------------------------
// Prompts and completion (scenarios prompts-*, completion-complete)
// ---------------------------------------------------------------------------------------------

const prompts: MCPServerPrompts = {
  listPrompts: async () => [
    { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds a resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    { name: 'test_prompt_with_image', description: 'A prompt that includes an image' },
    {
      name: 'test_input_required_result_prompt',
      description: 'Asks which context to use (input_required on 2026-07-28), then builds the prompt',
    },
  ],
  getPromptMessages: async ({ name, args }, { mcp }) => {
    const listed = await prompts.listPrompts();
    const prompt = listed.find((p) => p.name === name);
    if (!prompt) throw new Error(`Unknown prompt: ${name}`);
    switch (name) {
      case 'test_simple_prompt':
        return {
          prompt,
          messages: [
            { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
          ],
        };
      case 'test_prompt_with_arguments':
        return {
          prompt,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Prompt with arguments: arg1='${args?.arg1}', arg2='${args?.arg2}'`,
              },
            },
          ],
        };
      case 'test_prompt_with_embedded_resource':
        return {
          prompt,
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: String(args?.resourceUri),
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        };
      case 'test_input_required_result_prompt': {
        const answer = await mcp.elicitation.sendRequest({
          key: 'user_context',
          message: 'What context should the prompt use?',
          requestedSchema: {
            type: 'object',
            properties: { context: { type: 'string' } },
            required: ['context'],
          },
        });
        const context = answer.action === 'accept' ? String(answer.content?.context) : 'none';
        return {
          prompt,
          messages: [{ role: 'user', content: { type: 'text', text: `Context: ${context}` } }],
        };
      }
      default:
        return {
          prompt,
          messages: [
            { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        };
    }
  },
  completePromptArgument: ({ name, argument }) => {
    if (name !== 'test_prompt_with_arguments') return [];
    return ['paris', 'park', 'party', 'test', 'testing', 'tested'].filter((word) =>
      word.startsWith(argument.value),
    );
  },
};

// ---------------------------------------------------------------------------------------------
// Tasks (scenarios tasks-*): which of these run as tasks is the server's `tasks.tools` option
// ---------------------------------------------------------------------------------------------

/** Resolves after `ms`, or rejects once `signal` aborts (a cancelled task stops its work). */
function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const greet = createTool({
  id: 'greet',
  description: 'Greets someone (never a task)',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
});

const slow_compute = createTool({
  id: 'slow_compute',
  description: 'Sleeps `seconds`, then answers (a task for clients that declared the extension)',
  inputSchema: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
  execute: async ({ seconds, label }, context) => {
    await sleepUnlessAborted(seconds * 1000, mcpOf(context).extra.signal);
    return { content: [{ type: 'text', text: `Computed ${label ?? 'result'} after ${seconds}s` }] };
  },
});

const failing_job = createTool({
  id: 'failing_job',
  description: 'Runs for about a second, then reports a tool error (runs only as a task)',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    await sleepUnlessAborted(1000, mcpOf(context).extra.signal);
    return { content: [{ type: 'text', text: 'The job failed: simulated failure' }], isError: true };
  },
});

const protocol_error_job = createTool({
  id: 'protocol_error_job',
  description: 'Fails with a JSON-RPC internal error (its task ends failed)',
  inputSchema: noArguments,
  execute: async () => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job crashed: simulated internal error');
  },
});

const confirm_delete = createTool({
  id: 'confirm_delete',
  description: 'Asks the user to confirm deleting a file, then reports what happened',
  inputSchema: z.object({ filename: z.string() }),
  execute: async ({ filename }, context) => {
    const answer = await mcpOf(context).elicitation.sendRequest({
      message: `Delete ${filename}?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      },
    });
    const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
    return { content: [{ type: 'text', text: confirmed ? `Deleted ${filename}` : `Kept ${filename}` }] };
  },
});

const multi_input = createTool({
  id: 'multi_input',
  description: 'Asks two questions at once',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const { elicitation } = mcpOf(context);
    const [name, confirm] = await Promise.all([
      elicitation.sendRequest({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      }),
      elicitation.sendRequest({
        message: 'Proceed?',
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean' } },
          required: ['confirm'],
        },
      }),
    ]);
    return {
      content: [
        {
          type: 'text',
          text: `name=${String(name.content?.name)} confirm=${String(confirm.content?.confirm)}`,
        },
      ],
    };
  },
});

const test_tool_with_task = createTool({
  id: 'test_tool_with_task',
  description: 'Asks for a name, then greets it after a while (runs only as a task)',
  inputSchema: noArguments,
  execute: async (_input, context) => {
    const mcp = mcpOf(context);
    const answer = await mcp.elicitation.sendRequest({
      message: 'What is your name?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      },
    });
    // Working on after the answer: this is where the call becomes a task.
    await sleepUnlessAborted(500, mcp.extra.signal);
    return {
      content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}!` }],
    };
  },
});

// ---------------------------------------------------------------------------------------------
// Skills (scenarios sep-2640-skills-*): the suite finds them through skills/list and resources/list.
// The first entry by URI (code-review) has a subdirectory, which the directory scenario descends.
// ---------------------------------------------------------------------------------------------

const codeReview = createSkill({
  name: 'code-review',
  description: 'Review a code change for correctness and style',
  instructions: '# Code review\n\nWork through `references/checklist.md`, one item at a time.\n',
  references: { 'checklist.md': '# Checklist\n\n- It does what it says\n- It is tested\n' },
});
/** pdf-processing (references, templates, a nested skill forms-review). */
const skillsFolder = fileURLToPath(new URL('./skills', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

const mcp = new MCPServer({
  id: 'mastra-mcp-conformance',
  name: 'mastra-mcp-conformance',
  version: '1.0.0',
  description: 'MCPServer fixture for the MCP conformance suite',
  tools: {
    test_simple_text,
    test_image_content,
    test_audio_content,
    test_embedded_resource,
    test_multiple_content_types,
    test_tool_with_logging,
    test_error_handling,
    test_tool_with_progress,
    test_sampling,
    test_elicitation,
    test_elicitation_sep1034_defaults,
    test_elicitation_sep1330_enums,
    json_schema_2020_12_tool,
    test_reconnection,
    test_input_required_result_elicitation,
    test_input_required_result_sampling,
    test_input_required_result_list_roots,
    test_input_required_result_multiple_inputs,
    test_input_required_result_capabilities,
    test_missing_capability,
    test_input_required_result_request_state,
    test_input_required_result_multi_round,
    test_input_required_result_tampered_state,
    test_streaming_elicitation,
    test_logging_tool,
    test_custom_header,
    greet,
    slow_compute,
    failing_job,
    protocol_error_job,
    confirm_delete,
    multi_input,
    test_tool_with_task,
  },
  resources,
  prompts,
  skills: [codeReview, skillsFolder],
  tasks: {
    tools: {
      slow_compute: 'optional',
      failing_job: 'required',
      protocol_error_job: 'optional',
      confirm_delete: 'optional',
      multi_input: 'optional',
      // Asks for the name with the call's own input_required rounds, then becomes a task.
      test_tool_with_task: { support: 'required', inputBeforeTask: true },
    },
    pollIntervalMs: 200,
  },
});

const HTTP_PATH = '/mcp';
/** The same server configured the way code written for the SDK v1 transport does it. */
const V1_PATH = '/mcp-v1';

function v1Options(port: number): StreamableHTTPServerTransportOptions {
  return {
    enableDnsRebindingProtection: true,
    allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
    allowedOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
  };
}

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const v1 = url.pathname === V1_PATH;
  const { port } = http.address() as AddressInfo;
  mcp
    .startHTTP({
      url,
      httpPath: v1 ? V1_PATH : HTTP_PATH,
      req,
      res,
      ...(v1 ? { options: v1Options(port) } : {}),
    })
    .catch((error: unknown) => {
      console.error('startHTTP failed:', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal server error');
    });
});

http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  const served = `http://127.0.0.1:${port}${HTTP_PATH}`;
  const servedV1 = `http://127.0.0.1:${port}${V1_PATH}`;
  if (process.env.CONFORMANCE_READY_FILE) {
    writeFileSync(process.env.CONFORMANCE_READY_FILE, `${served}\n${servedV1}\n`);
  }
  console.log(
    `conformance fixture listening on ${served} and, configured for the SDK v1 transport, ${servedV1}`,
  );
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  console.log(`conformance fixture: ${signal}, closing`);
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await mcp.close();
  await closed;
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
