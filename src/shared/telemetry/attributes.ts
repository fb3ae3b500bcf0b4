/**
 * Every attribute the package puts on a span or a measurement, with its type: the OpenTelemetry
 * semantic conventions for MCP (docs/gen-ai/mcp.md in open-telemetry/semantic-conventions-genai)
 * and the registries they draw on, or `extension` for one of ours. test/unit/telemetry-attributes
 * checks that nothing else is emitted, and docs/telemetry.md lists the table.
 */

export type AttributeType = 'string' | 'int';

export interface AttributeSpec {
  type: AttributeType;
  /** `convention`: defined by the MCP semantic conventions; `extension`: this package's own. */
  source: 'convention' | 'extension';
}

const convention = <T extends AttributeType>(type: T) => ({ type, source: 'convention' as const });

export const ATTRIBUTES = {
  'mcp.method.name': convention('string'),
  'mcp.session.id': convention('string'),
  'mcp.protocol.version': convention('string'),
  'mcp.resource.uri': convention('string'),
  'gen_ai.tool.name': convention('string'),
  'gen_ai.prompt.name': convention('string'),
  'gen_ai.operation.name': convention('string'),
  'gen_ai.tool.call.arguments': convention('string'),
  'gen_ai.tool.call.result': convention('string'),
  'jsonrpc.request.id': convention('string'),
  'rpc.response.status_code': convention('string'),
  'error.type': convention('string'),
  'network.transport': convention('string'),
  'network.protocol.name': convention('string'),
  'network.protocol.version': convention('string'),
  'server.address': convention('string'),
  'server.port': convention('int'),
  'client.address': convention('string'),
  'client.port': convention('int'),
  /** MCPClient's key for the server (its `servers` entry), which tool ids are namespaced by. */
  'mastra.mcp.server.name': { type: 'string' as const, source: 'extension' as const },
} as const satisfies Record<string, AttributeSpec>;

export type AttributeName = keyof typeof ATTRIBUTES;

/** Attributes as the package builds them: only registered names. */
export type MCPAttributes = {
  [K in AttributeName]?: (typeof ATTRIBUTES)[K]['type'] extends 'int' ? number : string;
};

/** The attributes `mcp.*.operation.duration` carries (the conventions' list for the metric). */
export const OPERATION_METRIC_ATTRIBUTES: readonly AttributeName[] = [
  'mcp.method.name',
  'error.type',
  'gen_ai.prompt.name',
  'gen_ai.tool.name',
  'rpc.response.status_code',
  'gen_ai.operation.name',
  'mcp.protocol.version',
  'network.transport',
  'network.protocol.name',
  'network.protocol.version',
  'server.address',
  'server.port',
];

/** The attributes `mcp.*.session.duration` carries. */
export const SESSION_METRIC_ATTRIBUTES: readonly AttributeName[] = [
  'error.type',
  'mcp.protocol.version',
  'network.transport',
  'network.protocol.name',
  'network.protocol.version',
  'server.address',
  'server.port',
];

/** The subset of `attributes` named in `names`. */
export function pick(attributes: MCPAttributes, names: readonly AttributeName[]): MCPAttributes {
  const picked: Record<string, string | number> = {};
  for (const name of names) {
    const value = attributes[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked as MCPAttributes;
}
