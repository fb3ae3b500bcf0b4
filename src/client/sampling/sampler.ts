/**
 * One server's sampling answerer, built from the `sampling` option that applies to it. Every
 * request goes through the same gate, whatever answers it: at most `maxConcurrent` at once (more
 * are refused, so a server cannot queue up model calls), tools only where
 * `capabilities.sampling.tools` was declared, then the approval hook; a handler's answer is
 * checked against the protocol's result shape. Failures are MastraErrors naming the server; how
 * the server hears of them is the caller's (answers.ts).
 */
import type { Agent } from '@mastra/core/agent';
import type { MastraError } from '@mastra/core/error';
import type { MastraModelConfig } from '@mastra/core/llm';
import { ProtocolError, specTypeSchemas } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { lazyModule } from '../../shared/lazy-module.js';
import { issuePath } from '../../shared/schema-issues.js';
import { messageOf } from '../errors.js';
import { agentAnswer } from './agent-sampling.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  MCPClientSamplingOption,
  MCPSamplingApproval,
  MCPSamplingHandler,
  MCPSamplingOptions,
} from './types.js';

export const DEFAULT_SAMPLING_MAX_TOKENS = 4096;
export const DEFAULT_SAMPLING_MAX_CONCURRENT = 4;

const loadModelAgent = lazyModule(() => import('./model-agent.js'));
const OWN_REFUSALS: ReadonlySet<unknown> = new Set([
  MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED,
  MCPErrorCode.CLIENT_SAMPLING_FAILED,
]);

/** A Mastra Agent, told apart from a model (`doGenerate`) and an options object by its `generate`. */
export function isAgent(value: unknown): value is Agent {
  return typeof (value as { generate?: unknown } | null)?.generate === 'function';
}

/** A language model object (AI SDK `LanguageModelV*`). */
export function isModelObject(value: unknown): value is { specificationVersion?: unknown } {
  return typeof (value as { doGenerate?: unknown } | null)?.doGenerate === 'function';
}

/** The option in its object form (a handler, an agent or a model given alone). */
export function samplingOptions(option: MCPClientSamplingOption): MCPSamplingOptions {
  if (typeof option === 'function') return { handler: option as MCPSamplingHandler };
  if (isAgent(option)) return { agent: option };
  if (isModelObject(option)) return { model: option as MastraModelConfig };
  return option as MCPSamplingOptions;
}

export class Sampler {
  private running = 0;
  private readonly handler: MCPSamplingHandler | undefined;
  private readonly onRequest: MCPSamplingApproval | undefined;
  private readonly maxTokens: number;
  private readonly maxConcurrent: number;
  private readonly agent: () => Promise<Agent>;

  constructor(
    readonly serverName: string,
    option: MCPClientSamplingOption,
    /** Whether `capabilities.sampling.tools` was declared: only then may a request carry tools. */
    private readonly declaresTools: boolean,
  ) {
    const { handler, agent, model, onRequest, maxTokens, maxConcurrent } = samplingOptions(option);
    this.handler = handler;
    this.onRequest = onRequest;
    this.maxTokens = maxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS;
    this.maxConcurrent = maxConcurrent ?? DEFAULT_SAMPLING_MAX_CONCURRENT;
    let built: Agent | undefined = agent;
    this.agent = async () => {
      built ??= (await loadModelAgent()).modelAgent(serverName, model as MastraModelConfig);
      return built;
    };
  }

  /** Whether a handler answers (only a handler can answer with tools or act on included context). */
  get byHandler(): boolean {
    return this.handler !== undefined;
  }

  async answer(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    const { serverName } = this;
    if (this.running >= this.maxConcurrent)
      throw mcpError(
        MCPErrorCode.CLIENT_SAMPLING_LIMIT,
        `MCP server '${serverName}' asked for more than ${this.maxConcurrent} sampling answers at once; this one was refused (sampling.maxConcurrent)`,
        { server: serverName, limit: this.maxConcurrent },
      );
    if ((params.tools || params.toolChoice) && !this.declaresTools)
      throw mcpError(
        MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED,
        `MCP server '${serverName}' asked for sampling with tools, but capabilities.sampling.tools is not declared for it`,
        { server: serverName },
      );
    this.running++;
    try {
      await this.approve(params);
      return await this.generate(params, signal);
    } finally {
      this.running--;
    }
  }

  private async approve(params: CreateMessageRequestParams): Promise<void> {
    if (!this.onRequest) return;
    const { serverName } = this;
    let decision: unknown;
    try {
      decision = await this.onRequest(params, { serverName });
    } catch (error) {
      throw this.failed('the sampling onRequest hook failed', error);
    }
    if (decision === 'allow' || decision === true) return;
    throw mcpError(
      MCPErrorCode.CLIENT_SAMPLING_DENIED,
      `MCP server '${serverName}': its sampling request was denied by the sampling onRequest hook`,
      { server: serverName },
    );
  }

  private async generate(
    params: CreateMessageRequestParams,
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const { serverName } = this;
    if (!this.handler) {
      try {
        const agent = await this.agent();
        return await agentAnswer(agent, params, { serverName, signal, maxTokens: this.maxTokens });
      } catch (error) {
        // What agent-sampling.ts refused says so already; anything else is the agent's failure.
        throw OWN_REFUSALS.has((error as { id?: unknown }).id)
          ? error
          : this.failed('the sampling agent or model failed', error);
      }
    }
    let result: unknown;
    try {
      result = await this.handler(params, { serverName, signal });
    } catch (error) {
      // A protocol error the handler chose is what the server is answered.
      throw error instanceof ProtocolError ? error : this.failed('the sampling handler failed', error);
    }
    const checked = specTypeSchemas.CreateMessageResult['~standard'].validate(result);
    if (checked.issues)
      throw this.failed(
        "the sampling handler's answer is not a CreateMessageResult",
        checked.issues.map((issue) => `${issuePath(issue) || '(root)'}: ${issue.message}`).join('; '),
      );
    return result as CreateMessageResult;
  }

  private failed(what: string, cause: unknown): MastraError {
    return mcpError(
      MCPErrorCode.CLIENT_SAMPLING_FAILED,
      `MCP server '${this.serverName}': ${what}: ${messageOf(cause)}`,
      { server: this.serverName },
      cause,
    );
  }
}
