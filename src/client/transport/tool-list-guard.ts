/**
 * Screens `tools/list` results as they arrive, before the SDK validates them: the SDK's
 * validation recurses through every schema, so one tool nested 100,000 levels deep would
 * overflow the stack and fail the server's whole listing. A tool whose input or output schema is
 * over budget is removed here and reported; the server's other tools stay usable.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { type ToolSchemaOverBudget, toolSchemaOverBudget } from '../tools/schema-budget.js';

export type RejectedTool = (toolName: string, over: ToolSchemaOverBudget) => void;

function screen(message: JSONRPCMessage, onRejected: RejectedTool): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result;
  if (!result || !Array.isArray(result.tools)) return message;
  const kept = result.tools.filter((tool: unknown) => {
    if (typeof tool !== 'object' || tool === null) return true;
    const over = toolSchemaOverBudget(tool);
    if (over) onRejected(String((tool as { name?: unknown }).name), over);
    return !over;
  });
  if (kept.length === result.tools.length) return message;
  return { ...message, result: { ...result, tools: kept } } as JSONRPCMessage;
}

/** Installs the screen between the transport and whatever handler the SDK assigns to `onmessage`. */
export function guardToolLists<T extends Transport>(transport: T, onRejected: RejectedTool): T {
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = next && ((message, extra) => next(screen(message, onRejected), extra));
    },
  });
  return transport;
}
