/** The SDK's own server, whatever it publishes, behind `createMcpHandler` over HTTP on 127.0.0.1. */
import http from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { listenLocal } from './net.js';

/** Serves `build` (one server per request, as `createMcpHandler` wants) until `cleanups` run; its `/mcp` URL. */
export async function serveSdkOverHttp(
  build: Parameters<typeof createMcpHandler>[0],
  cleanups: Array<() => unknown>,
): Promise<URL> {
  const handler = createMcpHandler(build);
  const node = toNodeHandler(handler);
  const listener = await listenLocal(http.createServer((req, res) => void node(req, res)));
  cleanups.push(async () => {
    await handler.close();
    await listener.close();
  });
  return new URL(`${listener.url}/mcp`);
}
