/**
 * What a tool call resolves with. Structured results come back as the value itself (objects and
 * arrays carry the MCP `content` and `_meta` as non-enumerable properties; scalars and null stay
 * as they are); results without structured content come back as the `CallToolResult`; error
 * results throw a MastraError or, with `onToolError: 'return'`, resolve as the full result. A
 * value a 2025-era server wrapped as `{ result }` (output-envelope.ts) comes back unwrapped.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { unwrapOutput } from './output-envelope.js';

function errorText(result: CallToolResult): string {
  const text = result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
  return text || 'the tool reported an error without text';
}

export function shapeToolResult(
  result: CallToolResult,
  where: { server: string; tool: string },
  onToolError: 'throw' | 'return' = 'throw',
  /** The tool's output schema is the 2025 envelope: the value is its `result`. */
  enveloped = false,
): unknown {
  if (result.isError) {
    if (onToolError === 'return') return result;
    throw mcpError(
      MCPErrorCode.CLIENT_TOOL_ERROR,
      `MCP tool '${where.tool}' on server '${where.server}' failed: ${errorText(result)}`,
      {
        server: where.server,
        tool: where.tool,
        ...(result.structuredContent !== undefined
          ? { structuredContent: JSON.stringify(result.structuredContent) }
          : {}),
      },
    );
  }
  if (!('structuredContent' in result) || result.structuredContent === undefined) return result;
  const value: unknown = enveloped ? unwrapOutput(result.structuredContent) : result.structuredContent;
  if (value !== null && typeof value === 'object') {
    for (const [key, envelope] of [
      ['content', result.content],
      ['_meta', result._meta],
    ] as const) {
      if (envelope !== undefined && !Object.hasOwn(value, key)) {
        Object.defineProperty(value, key, { value: envelope, enumerable: false, configurable: true });
      }
    }
  }
  return value;
}
