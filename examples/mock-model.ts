/**
 * A deterministic language model for examples and tests (no keys, no network): its first turn
 * calls one tool (or several), its second answers from the tool results it was given.
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

export interface ToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** Its first turn calls every tool in `calls` at once; its second answers from all their results. */
export function toolCallsModel(
  calls: ToolCall[],
  options: {
    answer: (parts: ToolResultPart[]) => string;
    onPrompt?: ToolCallingModelOptions['onPrompt'];
  },
) {
  let turns = 0;
  return new MockLanguageModelV2({
    doGenerate: async (call) => {
      options.onPrompt?.(call.prompt);
      turns++;
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      if (turns === 1) {
        return {
          rawCall: { rawPrompt: null, rawSettings: {} },
          finishReason: 'tool-calls',
          usage,
          content: calls.map(({ toolName, input }, index) => ({
            type: 'tool-call' as const,
            toolCallId: `call-${index + 1}`,
            toolName,
            input: JSON.stringify(input),
          })),
          warnings: [],
        };
      }
      const parts = call.prompt
        .filter((message) => message.role === 'tool')
        .flatMap((message) => message.content as ToolResultPart[]);
      return {
        rawCall: { rawPrompt: null, rawSettings: {} },
        finishReason: 'stop',
        usage,
        content: [{ type: 'text', text: options.answer(parts) }],
        warnings: [],
      };
    },
  });
}

export function toolCallingModel(
  toolName: string,
  input: Record<string, unknown>,
  options: ToolCallingModelOptions = {},
) {
  const answer = options.answer ?? ((part) => JSON.stringify(part?.output?.value));
  return toolCallsModel([{ toolName, input }], {
    answer: (parts) => answer(parts[0]),
    ...(options.onPrompt ? { onPrompt: options.onPrompt } : {}),
  });
}
