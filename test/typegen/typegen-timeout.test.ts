/**
 * `mastra-mcp generate` without `--timeout` keeps the client's own timeout settings, as the
 * reference says; with it, each server gets that long. The command runs as a user runs it (a
 * subprocess, `node --import tsx src/typegen/cli.ts`, in a temporary project importing the package
 * as `mastra-mcp`) against a server whose `tools/list` answers after a second. The subprocess
 * preloads compressed-timers.mjs, so any deadline of 20 s or more passes 100 times sooner: the
 * client's 10-minute `timeout` stays generous, and a 30 s default would have passed in 0.3 s.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalListener, listenLocal } from '../support/net.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;
const compressedTimers = pathToFileURL(join(repo, 'test/fixtures/compressed-timers.mjs')).href;

/** Subprocesses load @mastra/core: generous, but no timing is asserted. */
const SLOW = 120_000;
const LIST_DELAY_MS = 1000;

let project: string;
let slow: LocalListener;

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', compressedTimers, '--import', tsxLoader, join(repo, 'src/typegen/cli.ts'), ...args],
      { cwd: project },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  // A server that takes a second to list its one tool.
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const server = new Server({ name: 'slow', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => {
        await new Promise((resolve) => setTimeout(resolve, LIST_DELAY_MS));
        return { tools: [{ name: 'ping', inputSchema: { type: 'object', properties: {} } }] };
      });
      return server;
    }),
  );
  slow = await listenLocal(http.createServer((req, res) => void handler(req, res)));
  project = await mkdtemp(join(tmpdir(), 'mastra-mcp-generate-timeout-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { paths: { 'mastra-mcp': [join(repo, 'src/index.ts')] } } }),
  );
  await writeFile(
    join(project, 'client.ts'),
    `import { MCPClient } from 'mastra-mcp';
export const client = new MCPClient({
  id: 'patient',
  timeout: 600_000,
  servers: { slow: { url: new URL(${JSON.stringify(`${slow.url}/mcp`)}) } },
  typegen: { outFile: 'out.generated.ts' },
});
`,
  );
}, SLOW);

afterAll(async () => {
  await slow?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('mastra-mcp generate timeouts', () => {
  it(
    "keeps the client's own timeout without --timeout, and gives each server --timeout when set",
    async () => {
      const patient = await runCli(['generate', 'client.ts']);
      expect(patient.stderr).toBe('');
      expect(patient.code).toBe(0);
      expect(await readFile(join(project, 'out.generated.ts'), 'utf8')).toContain('ping: {');

      await rm(join(project, 'out.generated.ts'));
      const hurried = await runCli(['generate', '--timeout', '200', 'client.ts']);
      expect(hurried.code).toBe(1);
      expect(hurried.stderr).toContain(
        `MCP server 'slow' at ${slow.url}/mcp did not answer within 200 ms (--timeout); its work was abandoned`,
      );
    },
    SLOW,
  );
});
