/**
 * 2026-07-28 requests across instances: three MCPServer processes (test/fixtures/redis-instance.ts)
 * share a request-state key and sit behind the `instance-affinity` balancer of
 * test/fixtures/balancer.ts, which honours the `Mcp-Instance-Id` request header as
 * docs/DEPLOYMENT.md tells a load balancer to. A fourth instance rotates to a new key (signs with
 * it, still verifies the old one) and is reached only directly.
 *
 * Plain requests spread over all three; an elicitation's `input_required` retry reaches the instance
 * whose memory holds the suspended run because MCPClient echoes the header; the same retry forced
 * elsewhere, or sent by the SDK's own client (which does not echo it), is refused with `-32602`
 * naming the holder, and never consumes or answers the suspended call; a balancer that reads the
 * holder from the request state in the body serves the SDK's client too.
 */
import { randomBytes } from 'node:crypto';
import { MastraError } from '@mastra/core/error';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MCP_INSTANCE_ID_HEADER,
  MCPClient,
  type MCPInputRequestHandler,
  MCPServer,
  requestStateInstance,
  WRONG_INSTANCE_REASON,
} from '../../src/index.js';
import { type Balancer, startBalancer } from '../fixtures/balancer.js';
import { type Instance, startInstance } from '../fixtures/instance-process.js';
import { type RedisServer, startRedisServer } from '../fixtures/redis-server.js';
import { answerElicitations, connectHttp, modernRequest, newClient, replyOf } from '../helpers.js';
import { textOf } from '../support/results.js';

const KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');
const IDS = ['a', 'b', 'c'];

let nextId = 0;

/** One 2026-07-28 tools/call straight to an instance, as raw JSON-RPC. */
async function rawCall(url: URL, name: string, params: Record<string, unknown> = {}) {
  const response = await fetch(
    url,
    modernRequest(
      'tools/call',
      { name, arguments: { question: 'Deploy?' }, ...params },
      { id: ++nextId, capabilities: { elicitation: { form: {} } } },
    ),
  );
  const json = await replyOf<{ result?: unknown; error?: unknown }>(response);
  return {
    instance: response.headers.get(MCP_INSTANCE_ID_HEADER),
    result: json.result as
      | {
          resultType?: string;
          requestState?: string;
          inputRequests?: Record<string, unknown>;
          content?: unknown;
        }
      | undefined,
    error: json.error as { code: number; message: string; data?: Record<string, unknown> } | undefined,
  };
}

/** A suspended `confirm` on `url`: its request state and the answer its question wants. */
async function suspend(url: URL) {
  const { result } = await rawCall(url, 'confirm');
  expect(result?.resultType).toBe('input_required');
  const key = Object.keys(result?.inputRequests ?? {})[0] as string;
  return {
    requestState: result?.requestState as string,
    inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
  };
}

let redis: RedisServer;
let instances: Instance[] = [];
/** Signs with NEW_KEY and still verifies KEY: the middle of a key rotation. */
let rotated: Instance;
let proxy: Balancer;
const cleanups: Array<() => Promise<unknown>> = [];

function mcpClient(
  handler: MCPInputRequestHandler = async () => ({ action: 'accept', content: { ok: true } }),
) {
  const mcp = new MCPClient({
    id: `scaled-${++nextId}`,
    registerProcessHooks: false,
    servers: { scaled: { url: proxy.url, protocolVersion: '2026-07-28', inputRequests: handler } },
  });
  cleanups.push(() => mcp.disconnect());
  return mcp;
}

// biome-ignore lint/suspicious/noExplicitAny: a Mastra tool's execute, called as an agent would
const run = (tool: any, input: unknown) => tool.execute(input, {});

beforeAll(async () => {
  redis = await startRedisServer();
  [rotated, ...instances] = await Promise.all([
    startInstance(redis.url, { requestState: { key: [NEW_KEY, KEY], instanceId: 'd' } }),
    ...IDS.map((instanceId) => startInstance(redis.url, { requestState: { key: KEY, instanceId } })),
  ]);
  proxy = await startBalancer(
    instances.map((instance) => instance.url),
    { policy: 'instance-affinity', keepAlive: false },
  );
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  await proxy?.close();
  await Promise.all([...instances, rotated].map((instance) => instance?.kill()));
  await redis?.close();
});

describe('requests of one server over three instances behind one URL', () => {
  it('any instance answers a plain request, and each response names its instance', async () => {
    const mcp = mcpClient();
    const tools = await mcp.listTools();
    const answered = new Set<string>();
    for (let i = 0; i < 6; i++) answered.add(textOf(await run(tools.scaled_whoami, {})));
    expect([...answered].sort()).toEqual(IDS);
    expect(new Set(proxy.routed.map((r) => r.upstream))).toEqual(new Set([0, 1, 2]));
    // Only a retry that carries request state names an instance.
    expect(proxy.routed.every((r) => r.instanceHeader === undefined)).toBe(true);
    expect((await rawCall(instances[1]?.url as URL, 'whoami')).instance).toBe('b');
  });

  it('MCPClient sends an input_required retry back to the instance holding the suspended call', async () => {
    const questions: string[] = [];
    const mcp = mcpClient(async ({ params }) => {
      questions.push(params.message);
      return { action: 'accept', content: { ok: true } };
    });
    const tools = await mcp.listTools();
    proxy.routed.length = 0;
    // Three at once: each operation remembers its own instance.
    const results = await Promise.all(
      ['Deploy?', 'Migrate?', 'Restart?'].map((question) => run(tools.scaled_confirm, { question })),
    );
    const answers = results.map((result) => textOf(result));
    expect(answers.map((answer) => answer.replace(/ on [abc]$/, ''))).toEqual(
      Array(3).fill('accept ok=true'),
    );
    expect(new Set(answers.map((answer) => answer.slice(-1)))).toEqual(new Set(IDS));
    expect(questions.sort()).toEqual(['Deploy?', 'Migrate?', 'Restart?']);

    const calls = proxy.routed.filter((r) => r.method === 'tools/call');
    const retries = calls.filter((r) => r.instanceHeader !== undefined);
    expect(retries.map((r) => r.instanceHeader).sort()).toEqual(IDS);
    // Round robin alone would have sent each retry to another instance than the first round.
    for (const retry of retries) expect(IDS[retry.upstream]).toBe(retry.instanceHeader);
  });

  it('a retry forced to another instance is refused naming the holder, and the call still waits there', async () => {
    proxy.affinity = 'misroute';
    try {
      const tools = await mcpClient().listTools();
      const refused = await run(tools.scaled_confirm, { question: 'Deploy?' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(
        /Tool 'confirm': this retry belongs to a call suspended on server instance '[abc]' but reached instance '[abc]'; send it to '[abc]' \(route by the Mcp-Instance-Id header/,
      );
    } finally {
      proxy.affinity = 'header';
    }

    const [a, b] = instances as [Instance, Instance];
    const suspended = await suspend(a.url);
    const elsewhere = await rawCall(b.url, 'confirm', suspended);
    expect(elsewhere.instance).toBe('b');
    expect(elsewhere.error).toMatchObject({
      code: -32602,
      data: { reason: WRONG_INSTANCE_REASON, instanceId: 'a', receivedBy: 'b' },
    });
    // The holder still has the run waiting, and the misrouted answer was not fed to it.
    const home = await rawCall(a.url, 'confirm', suspended);
    expect(textOf(home.result ?? {})).toBe('accept ok=true on a');
  });

  it('state signed with a key an instance does not hold is rejected; a rotated instance verifies the old key', async () => {
    const [a] = instances as [Instance];
    const fromRotated = await suspend(rotated.url);
    const foreign = await rawCall(a.url, 'confirm', fromRotated);
    expect(foreign.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });

    // Signed with the old key by `a`: `d` verifies it, so it can tell whose call it is.
    const fromA = await suspend(a.url);
    const atRotated = await rawCall(rotated.url, 'confirm', fromA);
    expect(atRotated.error).toMatchObject({
      code: -32602,
      data: { reason: WRONG_INSTANCE_REASON, instanceId: 'a', receivedBy: 'd' },
    });
    expect(textOf((await rawCall(a.url, 'confirm', fromA)).result ?? {})).toBe('accept ok=true on a');
    expect(textOf((await rawCall(rotated.url, 'confirm', fromRotated)).result ?? {})).toBe(
      'accept ok=true on d',
    );
  });

  it("the SDK's own client does not echo the header: refused behind round robin, served when the balancer reads the body", async () => {
    const client = await connectHttp(proxy.url, 'modern', newClient('modern'));
    cleanups.push(() => client.close());
    answerElicitations(client, () => ({ ok: true }));
    proxy.routed.length = 0;
    await expect(
      client.callTool({ name: 'confirm', arguments: { question: 'Deploy?' } }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { reason: WRONG_INSTANCE_REASON },
    });
    const [first, retry] = proxy.routed.filter((r) => r.method === 'tools/call');
    expect(retry?.instanceHeader).toBeUndefined();
    expect(retry?.upstream).not.toBe(first?.upstream);

    proxy.affinity = 'body';
    try {
      proxy.routed.length = 0;
      const done = await client.callTool({ name: 'confirm', arguments: { question: 'Deploy?' } });
      const [asked, answered] = proxy.routed.filter((r) => r.method === 'tools/call');
      expect(textOf(done)).toBe(`accept ok=true on ${IDS[asked?.upstream ?? -1]}`);
      expect(answered?.upstream).toBe(asked?.upstream);
    } finally {
      proxy.affinity = 'header';
    }
    expect(requestStateInstance('v1.bm90IGpzb24.mac')).toBeUndefined();
  });

  it('refuses request-state options that cannot work, naming the server and the field', () => {
    const attempt = (requestState: unknown) => {
      try {
        new MCPServer({ id: 'keyed', name: 'Keyed', version: '1.0.0', tools: {}, requestState } as never);
      } catch (error) {
        return error as MastraError;
      }
      throw new Error('constructed');
    };
    const short = attempt({ key: 'too short' });
    expect(short).toBeInstanceOf(MastraError);
    expect(short.id).toBe('MCP_SERVER_INVALID_REQUEST_STATE_OPTION');
    expect(short.message).toBe(
      "MCP server 'keyed': requestState.key is 9 bytes; a request-state key needs at least 32 (for example `openssl rand -base64 32`), the same on every instance",
    );
    expect(attempt({ key: [KEY, new Uint8Array(16)] }).message).toContain('requestState.key[1] is 16 bytes');
    expect(attempt({ key: process.env.UNSET_MCP_KEY }).message).toBe(
      "MCP server 'keyed': requestState.key must be a string or a Uint8Array, got undefined",
    );
    expect(attempt({ key: [] }).message).toContain('requestState.key is an empty list');
    expect(attempt({ key: KEY, instanceId: 'pod 1' }).message).toBe(
      "MCP server 'keyed': requestState.instanceId 'pod 1' cannot be an HTTP header value: use 1 to 128 visible ASCII characters without spaces (for example the pod name)",
    );
  });

  it('every instance exits by itself once closed, with suspended calls still waiting', async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await suspend((instances[2] as Instance).url);
    expect(await Promise.all([...instances, rotated].map((instance) => instance.stop()))).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
