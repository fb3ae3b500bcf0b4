/**
 * A deterministic language model for examples and tests (no keys, no network): its first turn
 * calls one tool, its second answers from the tool result it was given.
 */
import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV2 } from 'ai/test';

export type ToolResultPart = { output?: { type?: string; value?: unknown } } | undefined;

export interface ToolCallingModelOptions {
  /** The second turn's text, from the tool result part (default: its output value as JSON). */
  answer?: (part: ToolResultPart) => string;
  /** Sees every prompt the model receives. */
  onPrompt?: (prompt: LanguageModelV2CallOptions['prompt']) => void;
}

export function toolCallingModel(
  toolName: string,
  input: Record<string, unknown>,
  options: ToolCallingModelOptions = {},
) {
  const answer = options.answer ?? ((part) => JSON.stringify(part?.output?.value));
  let calls = 0;
  return new MockLanguageModelV2({
    doGenerate: async (call) => {
      options.onPrompt?.(call.prompt);
      calls++;
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      if (calls === 1) {
        return {
          rawCall: { rawPrompt: null, rawSettings: {} },
          finishReason: 'tool-calls',
          usage,
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
          warnings: [],
        };
      }
      const toolMessage = call.prompt.find((message) => message.role === 'tool');
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason: 'stop',
        usage,
        content: [{ type: 'text', text: answer(toolMessage?.content[0] as ToolResultPart) }],
        warnings: [],
      };
    },
  });
}
