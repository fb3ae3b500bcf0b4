// MCPServer reference, "startHTTP()" (serverless): a Supabase Edge Function (Deno) serving MCP statelessly with serverless: true.
// Supabase Edge Function example
// @ts-expect-error OUTSIDE: Deno URL import, not resolvable by Node's tsc
import { serve } from 'https://deno.land/std@0.168.0/http/server.ts';
// Note: You will need to convert req/res format from Deno to Node
// @ts-expect-error OUTSIDE: third-party module fetch-to-node is not installed
import { toFetchResponse, toReqRes } from 'fetch-to-node';
import { MCPServer } from 'mastra-mcp';

const server = new MCPServer({
  id: 'my-serverless-mcp',
  name: 'My Serverless MCP',
  version: '1.0.0',
  tools: {
    /* your tools */
  },
});

serve(async (req: Request) => {
  const url = new URL(req.url);

  if (url.pathname === '/mcp') {
    // Convert Deno Request to Node.js-compatible format
    const { req: nodeReq, res: nodeRes } = toReqRes(req);

    await server.startHTTP({
      url,
      httpPath: '/mcp',
      req: nodeReq,
      res: nodeRes,
      options: {
        serverless: true, // ← Enable stateless mode for serverless
      },
    });

    return toFetchResponse(nodeRes);
  }

  return new Response('Not found', { status: 404 });
});
