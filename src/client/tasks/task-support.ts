/**
 * Whether a listed tool may answer with a task (MCP Tasks): MCPServer lists it in the tool's
 * `_meta` (the 2026-07-28 wire has no `execution.taskSupport`). `required` means a call that does
 * not declare the extension is refused; MCPClient always declares it where the server offers it.
 */
import { TASK_SUPPORT_META_KEY } from '../../shared/tasks-wire.js';
import type { MCPToolDefinition } from '../tools/definition.js';

export type MCPToolTaskSupport = 'optional' | 'required';

export function taskSupportOf(definition: Pick<MCPToolDefinition, '_meta'>): MCPToolTaskSupport | undefined {
  const support = definition._meta?.[TASK_SUPPORT_META_KEY];
  return support === 'optional' || support === 'required' ? support : undefined;
}
