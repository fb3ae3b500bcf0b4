/**
 * MCPClient telling servers its roots, on both eras: the SDK's v2 `McpServer` over stdio (2025
 * `roots/list` through the SDK's shim, 2026-07-28 input requests), the SDK v1 server over
 * sessionful HTTP (2025, `notifications/roots/list_changed`), and the published
 * `@modelcontextprotocol/server-filesystem`, which confines itself to the roots it is given.
 * Capabilities are declared only where an answer is configured: what the servers saw is checked.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MastraMCPServerDefinition, MCPClientRootsOption, MCPRoot, MCPTool } from '../../src/index.js';
import { answer, askingHarness, MODERN, toolsOf } from '../fixtures/asking-harness.js';
import { run } from '../fixtures/client-harness.js';
import { serveV1AskingServer } from '../fixtures/sdk-v1-asking-server.js';
import { rejectionOf } from '../support/results.js';
import { eventually } from '../support/wait.js';

const { client: clientWith, askingStdio, cleanups } = askingHarness('roots');
const client = (servers: Record<string, MastraMCPServerDefinition>, roots?: MCPClientRootsOption) =>
  clientWith(servers, { roots });

describe('roots answered for the SDK McpServer (stdio)', () => {
  it.each(['legacy', MODERN] as const)(
    '%s: the list is answered; roots.set() replaces it (2025: the server is notified)',
    async (era) => {
      const mcp = client({ asking: askingStdio(era) }, [{ uri: 'file:///srv/one', name: 'one' }]);
      const tools = await toolsOf(mcp, 'asking');
      expect(await answer(tools, 'capabilities')).toEqual({ roots: { listChanged: true } });
      expect(await answer(tools, 'roots')).toEqual([{ uri: 'file:///srv/one', name: 'one' }]);

      await mcp.roots.set([{ uri: 'file:///srv/two' }]);
      // 2026-07-28 has no notification: the server reads the new list when it next asks.
      if (era === 'legacy')
        await eventually('roots/list_changed at the server', async () => {
          return (await answer(tools, 'roots_changes')).rootsChanges === 1;
        });
      else expect(await answer(tools, 'roots_changes')).toEqual({ rootsChanges: 0 });
      expect(await answer(tools, 'roots')).toEqual([{ uri: 'file:///srv/two' }]);
    },
  );

  it('a function is read at each request; a server definition overrides the client; set({ server }) reaches that server only', async () => {
    let dir = 'first';
    const mcp = client(
      {
        shared: askingStdio(MODERN),
        own: askingStdio(MODERN, { roots: [{ uri: 'file:///own' }] }),
      },
      () => [{ uri: `file:///${dir}` }],
    );
    const shared = await toolsOf(mcp, 'shared');
    const own = await toolsOf(mcp, 'own');
    expect(await answer(shared, 'roots')).toEqual([{ uri: 'file:///first' }]);
    dir = 'second';
    expect(await answer(shared, 'roots')).toEqual([{ uri: 'file:///second' }]);
    expect(await answer(own, 'roots')).toEqual([{ uri: 'file:///own' }]);

    await mcp.roots.set([{ uri: 'file:///replaced' }], { server: 'own' });
    expect(await answer(own, 'roots')).toEqual([{ uri: 'file:///replaced' }]);
    expect(await answer(shared, 'roots')).toEqual([{ uri: 'file:///second' }]);
  });

  it('a roots function answering a URI that is not file:// fails the call, naming the server and the entry', async () => {
    const mcp = client({ asking: askingStdio(MODERN) }, () => [{ uri: 'https://example.com/x' }]);
    const tools = await toolsOf(mcp, 'asking');
    const error = (await rejectionOf(run(tools.roots, {}))) as Error;
    expect(error.message).toContain(
      "MCP server 'asking': the roots function answered what is no list of roots",
    );
    expect(error.message).toContain('`roots()[0].uri` must be a file:// URI');
  });

  it('nothing configured: neither capability is declared', async () => {
    for (const era of ['legacy', MODERN] as const) {
      const mcp = client({ asking: askingStdio(era) });
      const tools = await toolsOf(mcp, 'asking');
      expect(await answer(tools, 'capabilities')).toEqual({});
    }
  });

  it('sampling alone declares sampling only (with what capabilities.sampling gives)', async () => {
    const mcp = clientWith(
      { asking: askingStdio('legacy', { capabilities: { sampling: { tools: {} } } }) },
      { sampling: () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: '' } }) },
    );
    const tools = await toolsOf(mcp, 'asking');
    expect(await answer(tools, 'capabilities')).toEqual({ sampling: { tools: {} } });
  });
});

describe('roots for the SDK v1 server (2025, sessionful HTTP)', () => {
  it('roots/list answered; roots.set() sends notifications/roots/list_changed and replaces a function', async () => {
    const v1 = await serveV1AskingServer();
    cleanups.push(() => v1.close());
    let roots: MCPRoot[] = [{ uri: 'file:///home/a', name: 'a' }];
    const mcp = client({ v1: { url: v1.url } }, () => roots);
    const tools = await toolsOf(mcp, 'v1');
    expect(await answer(tools, 'capabilities')).toEqual({ roots: { listChanged: true } });
    expect(await answer(tools, 'roots')).toEqual({ roots: [{ uri: 'file:///home/a', name: 'a' }] });

    roots = [];
    await mcp.roots.set([{ uri: 'file:///home/b' }]);
    await eventually('roots/list_changed at the v1 server', () => v1.rootsChanges === 1);
    expect(await answer(tools, 'roots')).toEqual({ roots: [{ uri: 'file:///home/b' }] });

    await mcp.roots.set([]);
    expect(await answer(tools, 'roots')).toEqual({ roots: [] });
  });

  it('a failing roots function reaches the server as -32603 naming the server', async () => {
    const v1 = await serveV1AskingServer();
    cleanups.push(() => v1.close());
    const mcp = client({ v1: { url: v1.url } }, () => {
      throw new Error('disk gone');
    });
    const tools = await toolsOf(mcp, 'v1');
    const { error } = await answer(tools, 'roots');
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("MCP server 'v1': the roots function failed: disk gone");
  });
});

describe('@modelcontextprotocol/server-filesystem given roots by MCPClient', () => {
  const entry = path.resolve(
    import.meta.dirname,
    '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
  );

  function workspace() {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-roots-')));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const inside = path.join(base, 'inside');
    const outside = path.join(base, 'outside');
    for (const dir of [inside, outside]) mkdirSync(dir);
    writeFileSync(path.join(inside, 'note.txt'), 'inside note');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside secret');
    return { inside, outside };
  }

  function filesystem(dir: string, stderr: string[], roots?: MCPRoot[]): MastraMCPServerDefinition {
    return {
      command: process.execPath,
      // Started with `dir` allowed: the roots replace it.
      args: [entry, dir],
      stderr: (line) => stderr.push(line),
      ...(roots ? { roots } : {}),
    };
  }

  // Its tools have output schemas: MCPClient returns the structured value, `{ content }`.
  const textFrom = async (tool: MCPTool | undefined, args: object) =>
    ((await run(tool, args)) as { content: string }).content;
  const allowed = async (tools: Record<string, MCPTool>) =>
    (await textFrom(tools.list_allowed_directories, {})).split('\n').slice(1);

  it('confines itself to the roots (and follows roots.set()); without roots it says it has none', async () => {
    const { inside, outside } = workspace();
    const stderr: string[] = [];
    const mcp = client({
      fs: filesystem(outside, stderr, [{ uri: pathToFileURL(inside).href, name: 'inside' }]),
    });
    const tools = await toolsOf(mcp, 'fs');
    // The server asks for roots once initialized, then replaces its allowed directories.
    await eventually('the roots to be allowed', async () => (await allowed(tools)).join() === inside);
    expect(await textFrom(tools.read_text_file, { path: path.join(inside, 'note.txt') })).toBe('inside note');
    const refused = (await rejectionOf(
      run(tools.read_text_file, { path: path.join(outside, 'secret.txt') }),
    )) as Error;
    expect(refused.message).toContain('Access denied - path outside allowed directories');
    expect(stderr.join('\n')).not.toContain('Client does not support MCP Roots');

    await mcp.roots.set([{ uri: pathToFileURL(outside).href }]);
    await eventually('the new roots to be allowed', async () => (await allowed(tools)).join() === outside);
    expect(await textFrom(tools.read_text_file, { path: path.join(outside, 'secret.txt') })).toBe(
      'outside secret',
    );

    // The control: the same server without roots keeps its arguments and says why.
    const without: string[] = [];
    const plain = client({ fs: filesystem(outside, without) });
    expect(await allowed(await toolsOf(plain, 'fs'))).toEqual([outside]);
    await eventually('its stderr line', () =>
      without.join('\n').includes('Client does not support MCP Roots'),
    );
  });
});
