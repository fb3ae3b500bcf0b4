/**
 * Turns what a tool returned into a `CallToolResult`. A value already shaped like a
 * `CallToolResult` passes through untouched so images, audio, embedded resources and resource
 * links reach the client as the tool built them; the derived tools shape their own (`toResult`).
 */
import { safeStringify } from '@mastra/core/utils/safe-stringify';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolEntry } from './tool-entry.js';

function isCallToolResultShaped(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || !('content' in value)) return false;
  const content = (value as { content: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((block) => typeof block === 'object' && block !== null && typeof block.type === 'string')
  );
}

function serialize(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return safeStringify(value);
  }
}

/**
 * A value as a result, the same on both eras: its JSON as one text block (a string as it is,
 * undefined as no content), and with `structured` (the tool advertises an output schema) the
 * value itself as `structuredContent`.
 */
export function valueResult(output: unknown, structured: boolean): CallToolResult {
  if (output === undefined) return { content: [] };
  const result: CallToolResult = { content: [{ type: 'text', text: serialize(output) }] };
  if (structured) result.structuredContent = output as Record<string, unknown>;
  return result;
}

export function toCallToolResult(entry: ToolEntry, output: unknown): CallToolResult {
  if (entry.toResult) return entry.toResult(output);
  if (isCallToolResultShaped(output)) return output;
  return valueResult(output, entry.definition.outputSchema !== undefined);
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
