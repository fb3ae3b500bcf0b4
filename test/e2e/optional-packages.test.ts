/**
 * What the main entry leaves to first use: with `hono/streaming`, `@modelcontextprotocol/server-legacy`,
 * `tsx` and `@opentelemetry/api` unresolvable (test/fixtures/hide-packages.mjs), a child process
 * still imports the package and `mastra-mcp/redis` and builds and closes an MCPServer (telemetry on
 * by default: without the API it stays off); `startHonoSSE()` then fails naming Hono's streaming
 * helper, which only it loads. (`hono` itself comes with the SDK's Node
 * package, through `@hono/node-server`.)
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;
const src = (path: string) =>
  pathToFileURL(fileURLToPath(new URL(`../../src/${path}`, import.meta.url))).href;
const hidePackages = fileURLToPath(new URL('../fixtures/hide-packages.mjs', import.meta.url));

const script = `
import http from 'node:http';
const { MCPServer } = await import(${JSON.stringify(src('index.ts'))});
await import(${JSON.stringify(src('redis/index.ts'))});
const server = new MCPServer({ id: 'lean', name: 'Lean', version: '1.0.0', tools: {} });
const listener = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  server.startHonoSSE({ url, ssePath: '/sse', messagePath: '/message', req, res }).then(
    () => console.log('hono: served'),
    (error) => { console.log('hono: ' + error.message.split(' imported from')[0]); res.end(); },
  );
});
await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
const response = await fetch('http://127.0.0.1:' + listener.address().port + '/sse');
await response.text();
listener.close();
await server.close();
console.log('done');
`;

/** A tool call from MCPClient to MCPServer over HTTP with no OpenTelemetry SDK registered. */
const untraced = `
import http from 'node:http';
import { createRequire } from 'node:module';
const { MCPClient, MCPServer } = await import(${JSON.stringify(src('index.ts'))});
const { createTool } = await import('@mastra/core/tools');
const echo = createTool({ id: 'echo', description: 'Echoes.', execute: async () => 'hi' });
const server = new MCPServer({ id: 'plain', name: 'Plain', version: '1.0.0', tools: { echo } });
const listener = http.createServer((req, res) => {
  void server.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
});
await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
const url = new URL('http://127.0.0.1:' + listener.address().port + '/mcp');
const client = new MCPClient({ id: 'plain', registerProcessHooks: false, servers: { plain: { url } } });
const tools = await client.listTools();
console.log('called: ' + JSON.stringify(await tools.plain_echo.execute({}, {})).includes('"hi"'));
await client.disconnect();
await server.close();
listener.close();
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log('api loaded: ' + cache.some((file) => file.includes('@opentelemetry/api')));
`;

describe('optional packages', () => {
  it('leaves @opentelemetry/api unloaded while nothing is registered with it (telemetry on, the default)', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', tsxLoader, '--input-type=module', '-e', untraced],
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['called: true', 'api loaded: false']);
    expect(run.code).toBe(0);
  }, 60_000);

  it('imports the package without hono/streaming, the legacy SSE package, tsx or @opentelemetry/api; startHonoSSE names what it lacks', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', tsxLoader, '--import', hidePackages, '--input-type=module', '-e', script],
        {
          env: {
            ...process.env,
            HIDDEN_PACKAGES: 'hono/streaming,@modelcontextprotocol/server-legacy,tsx,@opentelemetry/api',
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(["hono: Cannot find package 'hono/streaming'", 'done']);
  }, 60_000);
});
