/**
 * `prompts/*` and prompt-argument completion over the user's MCPServerPrompts callbacks. Prompts
 * may be versioned: several entries share a name, and `prompts/get` selects one by `version`.
 */
import {
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { toCompleteResult } from './resources.js';
import type { MCPServerPrompts } from './types.js';

export class PromptHandlers {
  constructor(private readonly config: MCPServerPrompts) {}

  async list(): Promise<ListPromptsResult> {
    return { prompts: await this.config.listPrompts() };
  }

  async get(
    name: string,
    version: string | undefined,
    args: Record<string, string> | undefined,
  ): Promise<GetPromptResult> {
    const candidates = (await this.config.listPrompts()).filter((p) => p.name === name);
    if (candidates.length === 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt '${name}' not found`);
    }
    const prompt = version === undefined ? candidates[0] : candidates.find((p) => p.version === version);
    if (!prompt) {
      const known = candidates.map((p) => p.version).filter(Boolean);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt '${name}' has no version '${version}'${known.length ? ` (available: ${known.join(', ')})` : ''}`,
      );
    }
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && args?.[arg.name] === undefined);
    if (missing.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt '${name}' is missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((a) => a.name).join(', ')}`,
      );
    }
    if (!this.config.getPromptMessages) {
      return prompt.description ? { description: prompt.description, messages: [] } : { messages: [] };
    }
    const { prompt: resolved, messages } = await this.config.getPromptMessages({
      name,
      ...(version !== undefined ? { version } : {}),
      args: args ?? {},
    });
    const description = resolved?.description ?? prompt.description;
    return description ? { description, messages } : { messages };
  }

  async complete(
    name: string,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    const complete = this.config.completePromptArgument;
    return toCompleteResult(complete ? await complete({ name, argument, context }) : undefined);
  }
}
