/**
 * A tool as plain, serializable data: what `tools/list` said, plus the server identity and
 * instructions captured at discovery. Both `listTools()` and cached catalogs build executable
 * tools from this shape.
 */
import type { Tool as WireTool } from '@modelcontextprotocol/client';
import { toolSchemaOverBudget } from './schema-budget.js';

export interface MCPToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: WireTool['inputSchema'];
  outputSchema?: WireTool['outputSchema'];
  annotations?: WireTool['annotations'];
  _meta?: Record<string, unknown>;
  serverName: string;
  serverVersion?: string;
  serverInstructions?: string;
}

export function definitionFrom(
  tool: WireTool,
  server: { name: string; version?: string | undefined; instructions?: string | undefined },
): MCPToolDefinition {
  const definition: MCPToolDefinition = {
    name: tool.name,
    inputSchema: tool.inputSchema,
    serverName: server.name,
  };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  if (tool._meta !== undefined) definition._meta = tool._meta;
  if (server.version !== undefined) definition.serverVersion = server.version;
  if (server.instructions !== undefined) definition.serverInstructions = server.instructions;
  return definition;
}

/**
 * Why a name a server chose cannot key a plain object: it is an Object.prototype property
 * (`__proto__` would replace the object's prototype, `constructor` or `toString` shadow what every
 * object has). Tools so named are dropped wherever their names become keys: listings (the
 * tool-list guard), catalogs and `server_tool` keys.
 */
export function reservedKeyProblem(key: string, what = 'name'): string | undefined {
  return Object.hasOwn(Object.prototype, key)
    ? `its ${what} '${key}' is an Object.prototype property: as an object key it would replace or shadow it`
    : undefined;
}

/**
 * Why a definition cannot become a tool (a malformed cached entry, a reserved name, or a schema
 * over budget), or undefined when it can. The message names the field.
 */
export function definitionProblem(definition: unknown): string | undefined {
  if (typeof definition !== 'object' || definition === null) return 'the definition is not an object';
  const { name, inputSchema, outputSchema } = definition as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') return "'name' must be a non-empty string";
  const reserved = reservedKeyProblem(name);
  if (reserved) return reserved;
  for (const [field, schema] of [
    ['inputSchema', inputSchema],
    ['outputSchema', outputSchema],
  ] as const) {
    if (schema === undefined && field === 'outputSchema') continue;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      return `'${field}' must be a JSON Schema object`;
  }
  const over = toolSchemaOverBudget({ inputSchema, outputSchema });
  return over ? `its ${over.field} ${over.message}` : undefined;
}
