/**
 * What every runtime test asserts of an MCPServer served through `server.fetch` on that runtime
 * (fixtures/fetch-server.ts): the SDK client of each era lists and calls a tool, a 2026-07-28 call
 * streams its progress over SSE, and a CORS preflight is answered. One server per file, started in
 * `beforeAll` and shared by its tests. Also how to find each runtime's binary and start a process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, type Era } from '../helpers.js';
import { CORS_ORIGIN, type ReportedSpan } from './fixtures/fetch-server.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

/** Bun, Deno and workerd take seconds to start and load @mastra/core on a busy 2-core machine. */
export const START_TIMEOUT_MS = 90_000;

/**
 * A runtime's binary as its npm package installs it: the package's own launcher once its
 * postinstall ran, else the platform package's binary (an install without scripts); undefined
 * when neither is there (scripts/provision-tests.sh installs them).
 */
export function runtimeBinary(runtime: 'bun' | 'deno'): string | undefined {
  const platform = runtime === 'bun' ? '@oven/bun-linux-x64/bin/bun' : '@deno/linux-x64-glibc/deno';
  const candidates = [join(ROOT, 'node_modules/.bin', runtime), join(ROOT, 'node_modules', platform)];
  return candidates.find((path) => existsSync(path) && !isPlaceholder(path));
}

/** Bun's launcher before its postinstall is a small script that only says the postinstall did not run. */
function isPlaceholder(path: string): boolean {
  try {
    return statSync(path).size < 4096;
  } catch {
    return true;
  }
}

export function hasPackage(name: string): boolean {
  try {
    return existsSync(dirname(require.resolve(`${name}/package.json`)));
  } catch {
    return false;
  }
}

export interface Served {
  url: URL;
  stop(): Promise<void>;
}

/** Starts `command` in the repository, reads `{ "port": n }` from its first stdout line; `stop()` kills it. */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Served> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const port = await new Promise<number>((resolvePort, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      try {
        resolvePort((JSON.parse(line) as { port: number }).port);
      } catch {
        // Not the announcement.
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${command} exited (${code}) before listening: ${stderr.join('')}`)),
    );
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The runtime tests, against the server `start()` serves (one per file). */
export function describeRuntime(runtime: string, available: boolean, start: () => Promise<Served>): void {
  describe.skipIf(!available)(`server.fetch on ${runtime}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await start();
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await served?.stop();
    });

    it.each<Era>(['modern', 'legacy'])('the SDK client (%s) lists and calls a tool', async (era) => {
      const client = await connectHttp(served.url, era);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
        expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
          'count',
          'greet',
          'spans',
        ]);
        const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
        expect(result.content).toEqual([{ type: 'text', text: `Hello Ada from ${runtime}` }]);
      } finally {
        await client.close();
      }
    });

    it('streams a call’s progress over SSE', async () => {
      const client = await connectHttp(served.url, 'modern');
      try {
        const seen: number[] = [];
        const result = await client.callTool(
          { name: 'count', arguments: { n: 3 } },
          { onprogress: (progress) => seen.push(progress.progress) },
        );
        expect(
          result.structuredContent ?? JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? ''),
        ).toEqual({
          counted: 3,
        });
        expect(seen).toEqual([1, 2, 3]);
      } finally {
        await client.close();
      }
    });

    it('continues the caller’s trace in its OpenTelemetry SERVER span', async () => {
      const client = await connectHttp(served.url, 'modern');
      try {
        const traceId = randomBytes(16).toString('hex');
        const parentSpanId = randomBytes(8).toString('hex');
        await client.callTool({
          name: 'greet',
          arguments: { name: 'Ada' },
          _meta: { traceparent: `00-${traceId}-${parentSpanId}-01` },
        });
        const report = await client.callTool({ name: 'spans', arguments: {} });
        const [text] = report.content as Array<{ text: string }>;
        const { spans } = JSON.parse(text?.text ?? '{}') as { spans: ReportedSpan[] };
        expect(spans.filter((span) => span.traceId === traceId)).toEqual([
          {
            name: 'tools/call greet',
            traceId,
            parentSpanId,
            attributes: expect.objectContaining({
              'mcp.method.name': 'tools/call',
              'gen_ai.tool.name': 'greet',
              'mcp.protocol.version': '2026-07-28',
              'network.transport': 'tcp',
              'network.protocol.name': 'http',
            }),
          },
        ]);
      } finally {
        await client.close();
      }
    });

    it('answers a CORS preflight from the listed origin, and refuses another', async () => {
      const ask = (origin: string) =>
        fetch(served.url, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
      const listed = await ask(CORS_ORIGIN);
      expect(listed.status).toBe(204);
      expect(listed.headers.get('access-control-allow-origin')).toBe(CORS_ORIGIN);
      expect((await ask('http://other.example')).status).toBe(403);
    });
  });
}
