/**
 * The `sampling` option's public types: how MCPClient answers a server that asks the application's
 * model to generate (`sampling/createMessage`, a 2025 request or a 2026-07-28 input request).
 */
import type { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';

export type { CreateMessageRequestParams, CreateMessageResult };

/** What a sampling handler is told besides the request. */
export interface MCPSamplingContext {
  /** The server that asks, as configured in `servers`. */
  serverName: string;
  /** Aborts when the server gives up, the call that asked ends, or the client disconnects. */
  signal: AbortSignal;
}

/** Answers one sampling request yourself: the model, stop reason and content to return. */
export type MCPSamplingHandler = (
  request: CreateMessageRequestParams,
  context: MCPSamplingContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** An approval hook's verdict: only `'allow'` or `true` lets the request through. */
export type MCPSamplingDecision = 'allow' | 'deny' | boolean;

/** Decides whether a server may have the application's model generate (a trust decision). */
export type MCPSamplingApproval = (
  request: CreateMessageRequestParams,
  context: { serverName: string },
) => MCPSamplingDecision | Promise<MCPSamplingDecision>;

/**
 * A language model object (an AI SDK `LanguageModelV2`/`V3`/`V4`, such as `openai('gpt-4o')` or a
 * mock): what the `sampling` option takes without wrapping it in an object.
 */
export type MCPSamplingModel = Exclude<
  Extract<MastraModelConfig, { doGenerate: unknown }>,
  { specificationVersion: 'v1' }
>;

/** The object form of the `sampling` option: exactly one of `handler`, `agent` or `model`. */
export interface MCPSamplingOptions {
  /** Answers each request yourself. */
  handler?: MCPSamplingHandler;
  /** Answers with `agent.generate()`: one step, none of its tools, its instructions kept. */
  agent?: Agent;
  /**
   * Answers with this model, as an Agent without instructions would: anything an Agent's `model`
   * takes (a model object, or a model router id such as `'openai/gpt-4o-mini'`, which needs the
   * provider's API key when the request comes).
   */
  model?: MastraModelConfig;
  /** Asked first, for every request; a denial answers the server with the protocol's rejection. */
  onRequest?: MCPSamplingApproval;
  /** The most tokens an `agent` or `model` answer may take, whatever the server asks (default 4096). */
  maxTokens?: number;
  /** Requests of one server answered at once; more are refused while these run (default 4). */
  maxConcurrent?: number;
}

/** The `sampling` option: a handler, a Mastra Agent, a language model, or {@link MCPSamplingOptions}. */
export type MCPClientSamplingOption = MCPSamplingHandler | Agent | MCPSamplingModel | MCPSamplingOptions;
