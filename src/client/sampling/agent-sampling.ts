/**
 * A sampling request answered by a Mastra Agent (a bare model is answered through an Agent of its
 * own: model-agent.ts). The request becomes one `agent.generate()` call: its messages (text, image
 * and audio), `systemPrompt` as an added system message beside the agent's own instructions, and
 * `maxTokens` (at most the configured cap), `temperature` and `stopSequences` as model settings.
 * The agent answers in one step with none of its tools, so a server's prompt never runs the
 * application's tools. `modelPreferences` and `includeContext` are not acted on: the application
 * chose the model, and no context of other servers is shared. The output becomes the protocol's
 * result: the text, the model id, and the stop reason (`stop` reads as `endTurn`, `length` as
 * `maxTokens`; the AI SDK reports a stop sequence as `stop` too, so `stopSequence` is never told).
 */
import type { Agent } from '@mastra/core/agent';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessage,
} from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';

type GenerateInput = Parameters<Agent['generate']>[0];
type Block = Extract<SamplingMessage['content'], { type: string }>;
type Part =
  | { type: 'text'; text: string }
  | { type: 'image'; image: string; mediaType: string }
  | { type: 'file'; data: string; mediaType: string };

/** What `generate()` answers that the result is made of. */
interface GenerateOutput {
  text: string;
  finishReason?: string;
  response?: { modelId?: string; modelMetadata?: { modelId?: string } };
  tripwire?: { reason?: string };
}

const STOP_REASONS: Readonly<Record<string, string>> = { stop: 'endTurn', length: 'maxTokens' };

function partOf(block: Block, serverName: string, index: number): Part {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image', image: block.data, mediaType: block.mimeType };
  if (block.type === 'audio') return { type: 'file', data: block.data, mediaType: block.mimeType };
  throw mcpError(
    MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED,
    `MCP server '${serverName}': sampling message ${index + 1} carries ${block.type} content, which an agent or model cannot answer; answer sampling with tools by a sampling handler`,
    { server: serverName, content: block.type },
  );
}

/** The request's messages as the agent takes them. */
export function agentMessages(params: CreateMessageRequestParams, serverName: string): GenerateInput {
  return params.messages.map((message, index) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    return { role: message.role, content: blocks.map((block) => partOf(block as Block, serverName, index)) };
  }) as unknown as GenerateInput;
}

/** Asks `agent` for the answer to `params`, within `maxTokens` tokens. */
export async function agentAnswer(
  agent: Agent,
  params: CreateMessageRequestParams,
  { serverName, signal, maxTokens }: { serverName: string; signal: AbortSignal; maxTokens: number },
): Promise<CreateMessageResult> {
  const output = (await agent.generate(agentMessages(params, serverName), {
    ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    modelSettings: {
      maxOutputTokens: Math.min(params.maxTokens, maxTokens),
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
      ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    },
    toolChoice: 'none',
    maxSteps: 1,
    abortSignal: signal,
  })) as unknown as GenerateOutput;
  if (output.tripwire)
    throw mcpError(
      MCPErrorCode.CLIENT_SAMPLING_FAILED,
      `MCP server '${serverName}': the sampling agent's processors blocked its answer: ${output.tripwire.reason ?? 'no reason given'}`,
      { server: serverName },
    );
  const finish = output.finishReason;
  return {
    role: 'assistant',
    content: { type: 'text', text: output.text },
    model: output.response?.modelId ?? output.response?.modelMetadata?.modelId ?? 'unknown',
    ...(finish ? { stopReason: STOP_REASONS[finish] ?? finish } : {}),
  };
}
