/**
 * The last check of every tool definition MCPServer builds (explicit tools, `ask_<agent>`,
 * `run_<workflow>`, at construction and through `toolActions.add()`): what a client would refuse
 * is refused here, naming the tool and the fix, so a server never publishes a tool that clients
 * drop. Clients (MCPClient's tool-list guard among them) validate each listed tool with the SDK's
 * Tool schema, which takes only an object schema (`type: 'object'`) as `inputSchema`: tool
 * arguments are one JSON object. An `outputSchema` may have any root on 2026-07-28 (SEP-2106); the
 * SDK wraps a non-object one as `{ result }` for 2025-era callers.
 */
import { specTypeSchemas, type Tool as WireTool } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import { issuePath } from '../shared/schema-issues.js';

function refuse(name: string, field: string, text: string): never {
  throw mcpError(MCPErrorCode.SERVER_INVALID_TOOL, `Tool '${name}' cannot be published: ${text}`, {
    toolName: name,
    field,
  });
}

/** The schema's root type in words: `type 'string'`, or what it lacks. */
function rootType(schema: unknown): string {
  const type = (schema as { type?: unknown } | null)?.type;
  return type === undefined ? 'no `type`' : `type ${JSON.stringify(type)}`;
}

/** `definition` as it is, or a USER error saying what to change. */
export function publishable(definition: WireTool): WireTool {
  const { name } = definition;
  if ((definition.inputSchema as { type?: unknown }).type !== 'object')
    refuse(
      name,
      'inputSchema',
      `its inputSchema has ${rootType(definition.inputSchema)}, and MCP carries tool arguments as one object (clients drop a tool whose inputSchema is not \`type: 'object'\`); describe an object, e.g. z.object({ value: z.string() }) or { type: 'object', properties: { value: { type: 'string' } } }`,
    );
  const result = specTypeSchemas.Tool['~standard'].validate(definition);
  const issue = 'issues' in result ? result.issues?.[0] : undefined;
  if (issue) {
    const field = issuePath(issue);
    refuse(
      name,
      field,
      `its ${field || 'definition'} is refused by the protocol's Tool schema (${issue.message.slice(0, 200)}), so clients would drop it`,
    );
  }
  const { $schema } = definition.inputSchema as { $schema?: unknown };
  if ($schema !== undefined && typeof $schema !== 'string')
    refuse(
      name,
      'inputSchema.$schema',
      'its inputSchema.$schema must be a string (a dialect URI) or left out',
    );
  if (Object.hasOwn(Object.prototype, name))
    refuse(
      name,
      'name',
      'its name is an Object.prototype property, which clients that key tools by name (MCPClient among them) drop; rename it',
    );
  return definition;
}
