/**
 * The Express and Hono examples of the runtimes guide (examples/docs/runtimes/, shown in
 * docs/runtimes.md), each run as the guide runs it, in a process of its own on a free port: the SDK
 * client of each era lists and calls the tool, a browser's preflight from the listed origin is
 * answered, and the Hono app serves legacy HTTP+SSE clients too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectSse, type Era } from '../helpers.js';
import { freePort } from '../support/net.js';

/** A tsx process loading @mastra/core takes seconds on a busy 2-core machine. */
const START_TIMEOUT_MS = 60_000;

interface Example {
  url: URL;
  child: ChildProcess;
}

async function runExample(file: string): Promise<Example> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const announced = /^MCP server at (\S+)$/.exec(line)?.[1];
      if (announced) resolve(new URL(announced));
    });
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}): ${stderr.join('')}`)));
  });
  return { url, child };
}

/** The tests every example passes, then `more` (given the running example) for what only it serves. */
function describeExample(file: string, more?: (example: () => Example) => void): void {
  describe(file, () => {
    let example: Example;
    beforeAll(async () => {
      example = await runExample(file);
    }, START_TIMEOUT_MS);
    afterAll(() => {
      example?.child.kill();
    });

    it.each<Era>(['modern', 'legacy'])(
      'serves the SDK client (%s): lists and calls the tool',
      async (era) => {
        const client = await connectHttp(example.url, era);
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['getWeather']);
          const result = await client.callTool({ name: 'getWeather', arguments: { city: 'Lisbon' } });
          expect(result.structuredContent).toEqual({ city: 'Lisbon', forecast: 'sunny', celsius: 21 });
        } finally {
          await client.close();
        }
      },
    );

    it('answers a preflight from https://app.example.com', async () => {
      const preflight = await fetch(example.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    });
    more?.(() => example);
  });
}

describeExample('examples/docs/runtimes/express.ts');
describeExample('examples/docs/runtimes/hono.ts', (example) => {
  it('serves a legacy HTTP+SSE client at /sse (startHonoSSE)', async () => {
    const client = await connectSse(new URL('/sse', example().url));
    try {
      const result = await client.callTool({ name: 'getWeather', arguments: { city: 'Oslo' } });
      expect(result.structuredContent).toEqual({ city: 'Oslo', forecast: 'sunny', celsius: 21 });
    } finally {
      await client.close();
    }
  });
});
