/**
 * `npm run demo`: serves the Demo Kitchen MCPServer (examples/kitchen.ts) on Streamable HTTP at
 * 127.0.0.1 on an ephemeral port, then exercises every kind of capability with the MCP SDK's own
 * Client: as a 2026-07-28 client (`versionNegotiation: { mode: 'auto' }`), and as a legacy-pinned
 * 2025 client on the same endpoint. Then it uses the same server through MCPClient: Mastra tools,
 * progress, input requests, an Agent (deterministic mock model), resources and prompts. Prints a
 * compact summary, closes everything and exits 0 on its own; a hang exits 1.
 * With `--apps` it serves the MCP Apps example (examples/apps) for a browser instead.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from '@mastra/core/agent';
import {
  type CallToolResult,
  Client,
  type ElicitResult,
  type FetchLike,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { MCPClient, requestUrl } from '../src/index.js';
import { createKitchenServer, specialsTool } from './kitchen.js';
import { toolCallingModel } from './mock-model.js';

/** Anything that hangs (a stream nobody closes, a lost notification) fails the demo instead. */
const HARD_TIMEOUT_MS = 20_000;
/** How long a list_changed notification may take to arrive. */
const NOTICE_TIMEOUT_MS = 5_000;
/** After everything is closed the process must exit by itself within this time. */
const DRAIN_TIMEOUT_MS = 3_000;

const watchdog = setTimeout(() => {
  console.error(`demo: hard timeout after ${HARD_TIMEOUT_MS / 1000} s; open: ${openResources()}`);
  process.exit(1);
}, HARD_TIMEOUT_MS);
watchdog.unref();

function openResources(): string {
  return process.getActiveResourcesInfo().join(', ') || 'nothing';
}

// -- Output -------------------------------------------------------------------------------------

const LABEL_WIDTH = 18;

function line(label: string, text: string): void {
  console.log(`${label.padEnd(LABEL_WIDTH)}${text}`);
}

function sub(label: string, text: string): void {
  line(`  ${label}`, text);
}

/** The text as a JSON string literal, shortened to `max` characters. */
function quote(text: string, max = 72): string {
  const literal = JSON.stringify(text);
  return literal.length > max ? `${literal.slice(0, max - 2)}…"` : literal;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

function check(result: CallToolResult, tool: string): CallToolResult {
  if (result.isError) throw new Error(`tool ${tool} failed: ${textOf(result)}`);
  return result;
}

// -- Small async helpers ------------------------------------------------------------------------

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// -- A demo client --------------------------------------------------------------------------------

interface DemoClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** JSON-RPC requests and responses this client POSTed, in order (`+ inputResponses` marks a retry). */
  posted: string[];
  /** Messages of the elicitations the client's `elicitation/create` handler answered. */
  elicitations: string[];
  /** What that handler answers. */
  elicitationAnswer: ElicitResult;
  /** `notifications/message` log lines received. */
  logs: string[];
  /** Resolves with the refreshed tool names on the first tools list_changed. */
  toolsChanged: Promise<string[]>;
}

/** Connects an SDK Client with an elicitation handler, a log handler and a tools list_changed hook. */
async function connectClient(
  endpoint: URL,
  mode: 'auto' | 'legacy',
  elicitationAnswer: ElicitResult,
): Promise<DemoClient> {
  const posted: string[] = [];
  const elicitations: string[] = [];
  const logs: string[] = [];
  const toolsChanged = deferred<string[]>();
  const client = new Client(
    { name: `demo-${mode}-client`, version: '1.0.0' },
    {
      versionNegotiation: { mode },
      capabilities: { elicitation: { form: {} } },
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) =>
            error ? toolsChanged.reject(error) : toolsChanged.resolve((tools ?? []).map((t) => t.name)),
        },
      },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    elicitations.push(request.params.message);
    return elicitationAnswer;
  });
  client.setNotificationHandler('notifications/message', ({ params }) => {
    logs.push(`${params.level} ${JSON.stringify(params.data)}`);
  });
  // A fetch that records each JSON-RPC message with an id, to show what went over the wire.
  const tap: FetchLike = (url, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const message = JSON.parse(init.body) as {
        id?: unknown;
        method?: string;
        params?: { inputResponses?: unknown };
      };
      if (message.id !== undefined && message.method) {
        posted.push(message.params?.inputResponses ? `${message.method} + inputResponses` : message.method);
      } else if (message.id !== undefined) {
        posted.push('response'); // to a request the server sent (legacy sessions only)
      }
    }
    return fetch(url, init);
  };
  const transport = new StreamableHTTPClientTransport(endpoint, { fetch: tap });
  await client.connect(transport);
  return {
    client,
    transport,
    posted,
    elicitations,
    elicitationAnswer,
    logs,
    toolsChanged: toolsChanged.promise,
  };
}

/** Runs `action` and returns what it resolved to plus the requests the client POSTed meanwhile. */
async function traced<T>(demo: DemoClient, action: () => Promise<T>): Promise<[T, string[]]> {
  const start = demo.posted.length;
  const value = await action();
  return [value, demo.posted.slice(start)];
}

// -------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const mcp = createKitchenServer();
  const http = createServer((req, res) => {
    const url = requestUrl(req, 'http://127.0.0.1');
    if (!url) {
      res.writeHead(400).end('Bad request target');
      return;
    }
    void mcp.startHTTP({ url, httpPath: '/mcp', req, res }); // never rejects
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const endpoint = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);

  /** Closed in reverse order of opening. */
  const opened: Array<[string, () => Promise<void>]> = [
    [
      'HTTP server',
      async () => {
        http.closeAllConnections();
        await new Promise<void>((resolve, reject) =>
          http.close((error) => (error ? reject(error) : resolve())),
        );
      },
    ],
    ['MCPServer', () => mcp.close()],
  ];

  try {
    line('server', `Demo Kitchen 1.0.0 (MCPServer.startHTTP) at ${endpoint.href}`);

    const modern = await connectClient(endpoint, 'auto', {
      action: 'accept',
      content: { name: 'Ada', guests: 2 },
    });
    opened.push(['2026-07-28 client', () => modern.client.close()]);
    const legacy = await connectClient(endpoint, 'legacy', {
      action: 'accept',
      content: { name: 'Grace', guests: 4 },
    });
    opened.push([
      'legacy client (session deleted)',
      async () => {
        await legacy.transport.terminateSession();
        await legacy.client.close();
      },
    ]);
    const m = modern.client;

    line(
      'clients',
      `auto    ${modern.posted[0]} -> era ${m.getProtocolEra()}, protocol ${m.getNegotiatedProtocolVersion()}`,
    );
    line(
      '',
      `legacy  ${legacy.posted[0]} -> era ${legacy.client.getProtocolEra()}, protocol ${legacy.client.getNegotiatedProtocolVersion()}, session ${legacy.transport.sessionId?.slice(0, 8)}…`,
    );
    console.log();

    // -- Tools (2026-07-28 client) ------------------------------------------------------------
    const { tools } = await m.listTools();
    line('tools', `${tools.length} listed: ${tools.map((t) => t.name).join(', ')}`);

    const weather = check(
      await m.callTool({ name: 'getWeather', arguments: { city: 'Lisbon' } }),
      'getWeather',
    );
    sub('getWeather', `structuredContent ${JSON.stringify(weather.structuredContent)}`);

    const progress: string[] = [];
    const prep = check(
      await m.callTool(
        {
          name: 'prepIngredients',
          arguments: { dish: 'risotto', ingredients: ['rice', 'mushrooms', 'parmesan'] },
          // A 2026-07-28 client opts into log messages per request, in the `_meta` envelope.
          _meta: { [LOG_LEVEL_META_KEY]: 'debug' },
        },
        { onprogress: (p) => progress.push(`${p.progress}/${p.total} ${p.message}`) },
      ),
      'prepIngredients',
    );
    sub('prepIngredients', `progress ${progress.join(', ') || '(none)'}`);
    line('', `log      ${modern.logs.join(' | ') || '(none)'}`);
    line('', `result   ${quote(textOf(prep))}`);

    const [booking, bookingWire] = await traced(modern, () =>
      m.callTool({ name: 'bookTable', arguments: { time: '20:00' } }),
    );
    check(booking, 'bookTable');
    sub('bookTable', `elicitation ${quote(modern.elicitations[0] ?? '(none)')}`);
    line('', `answer   ${JSON.stringify(modern.elicitationAnswer)} by the elicitation/create handler`);
    line('', `wire     ${bookingWire.join(' -> ')} (input_required, then the retry)`);
    line('', `result   ${quote(textOf(booking))}`);

    // -- Agent and workflow -------------------------------------------------------------------
    const answer = check(
      await m.callTool({ name: 'ask_concierge', arguments: { message: 'Any table free tonight?' } }),
      'ask_concierge',
    );
    line('agent', `ask_concierge -> ${quote(textOf(answer), 90)}`);

    const order = {
      items: [
        { dish: 'risotto', price: 14, qty: 2 },
        { dish: 'tart', price: 9, qty: 1 },
      ],
    };
    // The run's output, structured as the workflow's outputSchema says.
    const quoted = check(await m.callTool({ name: 'run_quote', arguments: order }), 'run_quote');
    line('workflow', `run_quote -> structuredContent ${JSON.stringify(quoted.structuredContent)}`);

    // -- Resources ----------------------------------------------------------------------------
    const { resources } = await m.listResources();
    line(
      'resources',
      `${resources.length} listed: ${resources.map((r) => `${r.uri} (${r.mimeType})`).join(', ')}`,
    );
    const [menu] = (await m.readResource({ uri: 'kitchen://menu/today' })).contents;
    sub('read text', `kitchen://menu/today -> ${menu && 'text' in menu ? quote(menu.text, 44) : '?'}`);
    const [logo] = (await m.readResource({ uri: 'kitchen://logo.png' })).contents;
    const png = logo && 'blob' in logo ? Buffer.from(logo.blob, 'base64') : undefined;
    const signature = png?.subarray(1, 4).toString() === 'PNG' ? 'PNG signature ok' : 'not a PNG';
    sub(
      'read blob',
      `kitchen://logo.png -> ${png ? `${png.length} bytes ${logo?.mimeType}, ${signature}` : '?'}`,
    );
    const { resourceTemplates } = await m.listResourceTemplates();
    sub('templates', resourceTemplates.map((t) => `${t.uriTemplate} (${t.name})`).join(', '));
    const dishes = await m.complete({
      ref: { type: 'ref/resource', uri: 'kitchen://dishes/{dish}' },
      argument: { name: 'dish', value: 'r' },
    });
    sub('complete', `{dish} "r" -> ${dishes.completion.values.join(', ')}`);
    const [card] = (await m.readResource({ uri: 'kitchen://dishes/risotto' })).contents;
    sub('read template', `kitchen://dishes/risotto -> ${card && 'text' in card ? quote(card.text) : '?'}`);

    // -- Prompts ------------------------------------------------------------------------------
    // The SDK's Prompt type has no `version` (listPrompts() drops it), so read the listing with a
    // schema that keeps it, and send `version` as a raw `prompts/get` parameter.
    const { prompts } = await m.request(
      { method: 'prompts/list', params: {} },
      z.object({
        prompts: z.array(
          z.object({ name: z.string(), version: z.string().optional(), description: z.string() }),
        ),
      }),
    );
    line('prompts', `${prompts.length} listed: ${prompts.map((p) => `${p.name}@${p.version}`).join(', ')}`);
    const guests = await m.complete({
      ref: { type: 'ref/prompt', name: 'plan-dinner' },
      argument: { name: 'guests', value: '1' },
    });
    sub('complete', `{guests} "1" -> ${guests.completion.values.join(', ')}`);
    for (const version of ['v1', 'v2']) {
      const prompt = await m.request({
        method: 'prompts/get',
        params: { name: 'plan-dinner', version, arguments: { guests: '4' } },
      });
      const first = prompt.messages[0]?.content;
      const text = first?.type === 'text' ? quote(first.text) : '?';
      const served = prompts.find((p) => p.description === prompt.description)?.version;
      const warning =
        served === version ? '' : `  !! the server answered with ${served ?? 'another version'}`;
      sub(`get ${version}`, `plan-dinner@${version} {guests: 4} -> ${text}${warning}`);
    }

    // -- Dynamic tools: toolActions.add() -> notifications/tools/list_changed ------------------
    const before = new Set(tools.map((t) => t.name));
    await mcp.toolActions.add({ todaysSpecial: specialsTool });
    line('list_changed', 'server.toolActions.add({ todaysSpecial })');
    for (const [who, demo, how] of [
      ['auto', modern, 'subscriptions/listen'],
      ['legacy', legacy, 'session SSE stream'],
    ] as const) {
      const names = await within(
        demo.toolsChanged,
        NOTICE_TIMEOUT_MS,
        `tools list_changed on the ${who} client`,
      );
      const added = names.filter((name) => !before.has(name));
      sub(who, `tools list_changed via ${how} -> ${names.length} tools (+${added.join(', +')})`);
    }
    const special = check(await m.callTool({ name: 'todaysSpecial', arguments: {} }), 'todaysSpecial');
    sub('todaysSpecial', quote(textOf(special)));

    // -- The legacy-pinned client on the same endpoint ----------------------------------------
    const l = legacy.client;
    const oslo = check(await l.callTool({ name: 'getWeather', arguments: { city: 'Oslo' } }), 'getWeather');
    line('legacy client', `getWeather -> structuredContent ${JSON.stringify(oslo.structuredContent)}`);
    const [legacyBooking, legacyWire] = await traced(legacy, () =>
      l.callTool({ name: 'bookTable', arguments: { time: '19:30' } }),
    );
    check(legacyBooking, 'bookTable');
    sub('bookTable', `elicitation ${quote(legacy.elicitations[0] ?? '(none)')}`);
    line('', `answer   ${JSON.stringify(legacy.elicitationAnswer)} by the elicitation/create handler`);
    line('', `wire     ${legacyWire.join(' -> ')} (elicitation/create came as a server request)`);
    line('', `result   ${quote(textOf(legacyBooking))}`);

    // -- MCPClient: the same server as Mastra tools, for an Agent -------------------------------
    const client = new MCPClient({
      id: 'demo-client',
      registerProcessHooks: false,
      servers: {
        kitchen: {
          url: endpoint,
          enableProgressTracking: true,
          inputRequests: async ({ params }) =>
            params.mode === 'url'
              ? { action: 'decline' }
              : { action: 'accept', content: { name: 'Lin', guests: 3 } },
        },
        kitchenLegacy: { url: endpoint, protocolVersion: 'legacy' },
      },
    });
    opened.push(['MCPClient', () => client.disconnect()]);
    const { tools: mastraTools, errors } = await client.listToolsWithErrors({ perServerTimeoutMs: 5_000 });
    line(
      'MCPClient',
      `${Object.keys(mastraTools).length} Mastra tools from 2 servers, errors ${JSON.stringify(errors)}`,
    );
    sub(
      'keys',
      Object.keys(mastraTools)
        .filter((key) => key.startsWith('kitchen_'))
        .join(', '),
    );
    const weatherTool = mastraTools.kitchen_getWeather;
    // Outside an agent a tool runs without an execution context of its own.
    const standalone = {} as Parameters<NonNullable<NonNullable<typeof weatherTool>['execute']>>[1];
    const osloWeather = await weatherTool?.execute?.({ city: 'Oslo' }, standalone);
    sub('getWeather', `kitchen_getWeather -> ${JSON.stringify(osloWeather)} (the structured value)`);
    const progressSeen: string[] = [];
    await client.progress.onUpdate('kitchen', (update) =>
      progressSeen.push(`${update.progress}/${update.total}`),
    );
    await mastraTools.kitchen_prepIngredients?.execute?.(
      { dish: 'tart', ingredients: ['flour', 'butter'] },
      standalone,
    );
    sub('progress', `kitchen_prepIngredients -> progress.onUpdate ${progressSeen.join(', ') || '(none)'}`);
    const clientBooking = (await mastraTools.kitchen_bookTable?.execute?.(
      { time: '21:00' },
      standalone,
    )) as CallToolResult;
    sub('inputRequests', `bookTable answered by the handler -> ${quote(textOf(clientBooking))}`);
    const agent = new Agent({
      id: 'demo-agent',
      name: 'Demo Agent',
      instructions: 'Use the kitchen tools.',
      model: toolCallingModel(
        'kitchen_getWeather',
        { city: 'Lisbon' },
        {
          answer: (part) => `The tool said: ${JSON.stringify(part?.output?.value)}`,
        },
      ),
      tools: mastraTools,
    });
    const agentAnswer = await agent.generate('Is the terrace open?');
    sub('Agent', `called kitchen_getWeather -> ${quote(agentAnswer.text, 90)}`);
    const legacyResources = await client.resources.list();
    sub('resources', `kitchenLegacy: ${legacyResources.kitchenLegacy?.map((r) => r.uri).join(', ')}`);
    const planned = await client.prompts.get({
      serverName: 'kitchen',
      name: 'plan-dinner',
      args: { guests: '2' },
      version: 'v2',
    });
    sub(
      'prompts.get',
      `plan-dinner@v2 -> ${quote(String((planned.messages[0]?.content as { text?: string } | undefined)?.text))}`,
    );
  } finally {
    const closed: string[] = [];
    for (const [name, close] of opened.reverse()) {
      try {
        await close();
        closed.push(name);
      } catch (error) {
        console.error(`demo: closing ${name} failed:`, error);
        process.exitCode = 1;
      }
    }
    console.log();
    line('closed', closed.join(', '));
  }
}

/** `npm run demo -- --apps` serves the MCP Apps example instead, until Ctrl-C (examples/apps/demo.ts). */
async function apps(): Promise<void> {
  clearTimeout(watchdog); // it runs until stopped
  const { runAppsDemo } = await import('./apps/demo.js');
  await runAppsDemo();
}

(process.argv.includes('--apps') ? apps() : main()).then(
  () => {
    // Nothing may keep the process alive now; if something does, say what and fail.
    setTimeout(() => {
      console.error(
        `demo: still running ${DRAIN_TIMEOUT_MS / 1000} s after closing; open: ${openResources()}`,
      );
      process.exit(1);
    }, DRAIN_TIMEOUT_MS).unref();
  },
  (error: unknown) => {
    console.error('demo failed:', error);
    process.exit(1);
  },
);
