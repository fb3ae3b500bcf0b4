/**
 * `prompts/*` and prompt-argument completion over the user's MCPServerPrompts callbacks. Prompts
 * may be versioned: several entries share a name, and `prompts/get` selects one by `version`; the
 * first listed is the default, what a request without a version gets and all a 2025 listing shows.
 * Unknown prompts, versions and missing arguments describe the caller's request (-32602); a
 * callback that throws is a CallbackError naming the prompt (see request-errors.ts), and a
 * ProtocolError it throws on purpose (a -32021 for a question its client cannot be asked) goes to
 * the caller as it is.
 */
import {
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { quoted } from './issues.js';
import { runCallback } from './request-errors.js';
import { toCompleteResult } from './resources.js';
import type { MCPPromptContext, MCPServerPrompts } from './types.js';

export class PromptHandlers {
  constructor(private readonly config: MCPServerPrompts) {}

  /**
   * `oneVersionEach` is for 2025 clients, whose prompts have no `version`: several entries of one
   * name would be duplicates to them, so each name is listed once, as its default version (the
   * first listed, which `prompts/get` without a version serves).
   */
  async list({ oneVersionEach = false } = {}): Promise<ListPromptsResult> {
    const prompts = await runCallback('Listing prompts failed', () => this.config.listPrompts());
    if (!oneVersionEach) return { prompts };
    const seen = new Set<string>();
    const defaults = prompts.filter((prompt) => {
      if (seen.has(prompt.name)) return false;
      seen.add(prompt.name);
      return true;
    });
    return { prompts: defaults };
  }

  /** One prompt's messages; `context` is what `getPromptMessages` sees (its `mcp` asks the client for input). */
  async get(
    name: string,
    version: string | undefined,
    args: Record<string, string> | undefined,
    context: { mcp: MCPPromptContext },
  ): Promise<GetPromptResult> {
    const failure = `Prompt ${quoted(name)} failed`;
    const listed = await runCallback(failure, () => this.config.listPrompts());
    const candidates = listed.filter((p) => p.name === name);
    if (candidates.length === 0) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${quoted(name)} not found`);
    }
    // Without a version, the default: the first listed (the one 2025 listings show).
    const prompt = version === undefined ? candidates[0] : candidates.find((p) => p.version === version);
    if (!prompt) {
      const known = candidates.map((p) => p.version).filter(Boolean);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt ${quoted(name)} has no version ${quoted(String(version))}${known.length ? ` (available: ${known.join(', ')})` : ''}`,
      );
    }
    const missing = (prompt.arguments ?? []).filter((arg) => arg.required && args?.[arg.name] === undefined);
    if (missing.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Prompt ${quoted(name)} is missing required argument${missing.length > 1 ? 's' : ''}: ${missing.map((a) => a.name).join(', ')}`,
      );
    }
    const getMessages = this.config.getPromptMessages;
    if (!getMessages) {
      return prompt.description ? { description: prompt.description, messages: [] } : { messages: [] };
    }
    const { prompt: resolved, messages } = await runCallback(failure, () =>
      getMessages.call(
        this.config,
        { name, ...(version !== undefined ? { version } : {}), args: args ?? {} },
        context,
      ),
    );
    const description = resolved?.description ?? prompt.description;
    return description ? { description, messages } : { messages };
  }

  async complete(
    name: string,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    const complete = this.config.completePromptArgument;
    if (!complete) return toCompleteResult(undefined);
    return toCompleteResult(
      await runCallback(`Completing prompt ${quoted(name)} failed`, () =>
        complete({ name, argument, context }),
      ),
    );
  }
}
