/**
 * The HTTP header that names an MCPServer instance (`requestState.instanceId`). The server sets it
 * on its Streamable HTTP responses; MCPClient sends it back on an `input_required` retry, so a load
 * balancer can route the retry to the instance whose memory holds the suspended call
 * (docs/DEPLOYMENT.md). Header names are case-insensitive (Node's `req.headers` has them in lower case).
 */
export const MCP_INSTANCE_ID_HEADER = 'Mcp-Instance-Id';
