// app/mcp/route.ts: a Next.js route handler serving MCP at /mcp, the MCPServer's default path.
import { server } from './server.js';

export const runtime = 'nodejs'; // not 'edge': mastra-mcp loads node:http and node:net
export const dynamic = 'force-dynamic'; // every request is a live exchange: never cached

export const GET = server.fetch; // SSE streams of legacy sessions
export const POST = server.fetch;
export const DELETE = server.fetch; // a legacy client ending its session
export const OPTIONS = server.fetch; // CORS preflights (the server's `http.cors`)
