/**
 * Serves the MCP Apps example on 127.0.0.1 (ephemeral ports): the host page and the calculator
 * MCPServer (`/mcp`, Streamable HTTP) share one listener, so the page's Client needs no CORS; the
 * sandbox proxy has a listener of its own, because SEP-1865 wants host and sandbox on different
 * origins and another port is another origin. Used by the browser test and `npm run demo -- --apps`.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { requestUrl } from '../../src/index.js';
import { buildPage } from './bundle.js';
import { createCalculatorServer } from './calculator/server.js';

export interface AppsExample {
  /** The host page a person (or the browser test) opens. */
  hostUrl: URL;
  /** The MCP endpoint of the calculator server. */
  mcpUrl: URL;
  /** The sandbox proxy page, on another origin than the host page. */
  sandboxUrl: URL;
  /** Closes both listeners (and their connections) and the MCPServer. */
  close(): Promise<void>;
}

function page(file: string): Promise<string> {
  return buildPage(fileURLToPath(new URL(file, import.meta.url)));
}

async function listen(handler: RequestListener): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export async function startAppsExample(): Promise<AppsExample> {
  const [appHtml, hostHtml, sandboxHtml] = await Promise.all([
    page('calculator/app.html'),
    page('host/index.html'),
    page('host/sandbox.html'),
  ]);
  const mcp = createCalculatorServer(appHtml);
  let hostOrigin = '';

  const sandbox = await listen((req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/sandbox.html')) return send(res, 404, 'not found');
    // Only the host page may frame the proxy ('self' covers the view's srcdoc frame inside it).
    send(res, 200, sandboxHtml, { 'content-security-policy': `frame-ancestors 'self' ${hostOrigin}` });
  });
  const sandboxUrl = new URL('/sandbox.html', sandbox.origin);
  const hostPage = hostHtml.replace('%SANDBOX_URL%', sandboxUrl.href);

  const host = await listen((req, res) => {
    const url = requestUrl(req, hostOrigin);
    if (!url) {
      send(res, 400, 'bad request target');
    } else if (url.pathname === '/mcp') {
      void mcp.startHTTP({ url, httpPath: '/mcp', req, res }); // never rejects
    } else if (req.method === 'GET' && url.pathname === '/') {
      send(res, 200, hostPage, {
        'content-security-policy': `default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-src ${sandbox.origin}`,
      });
    } else {
      send(res, 404, 'not found');
    }
  });
  hostOrigin = host.origin;

  return {
    hostUrl: new URL('/', host.origin),
    mcpUrl: new URL('/mcp', host.origin),
    sandboxUrl,
    async close() {
      await Promise.all([stop(host.server), stop(sandbox.server)]);
      await mcp.close();
    },
  };
}
