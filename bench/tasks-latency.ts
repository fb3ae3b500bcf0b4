/**
 * MCP Tasks (SEP-2663): how long after a task's tool finished the client sees it, when the server
 * pushes (`notifications/tasks` on `subscriptions/listen`, followed by a tool's `execute()`) and
 * when the client polls (`mcp.tasks.get()` every `pollIntervalMs`, as a client without a listen
 * stream does). Baseline from the same run: one `tasks/get` round trip to the same server, the
 * least any client needs to learn anything. Tools finish after a random 20 ms to two poll
 * intervals, so completions fall at random points of the interval. MCPServer (in-memory store, Streamable HTTP on
 * 127.0.0.1) and MCPClient share this process and its clock. Prints p50 / p95 / max per mode and
 * the requests each task cost.
 *
 *   npm run bench:tasks   (flags: --tasks <n> per mode and round, --rounds <n>, --concurrency <n>,
 *                          --poll-interval <ms>)
 */
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createTool } from '@mastra/core/tools';
import { createClient } from 'redis';
import { z } from 'zod';
import { MCPClient, MCPServer, type MCPTaskStore } from '../src/index.js';
import { RedisMCPTaskStore } from '../src/redis/index.js';
import { startBalancer } from '../test/fixtures/balancer.js';
import { startRedisServer } from '../test/fixtures/redis-server.js';
import { listenLocal } from '../test/support/net.js';
import { ms, percentile, ratio } from './support.js';

const { values: flags } = parseArgs({
  options: {
    tasks: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '10' },
    'poll-interval': { type: 'string', default: '1000' },
    redis: { type: 'boolean', default: false },
  },
});
const TASKS = Number(flags.tasks);
const ROUNDS = Number(flags.rounds);
const CONCURRENCY = Number(flags.concurrency);
const POLL_INTERVAL_MS = Number(flags['poll-interval']);

/** When each task's tool returned, by label. */
const finished = new Map<string, number>();
const finish = createTool({
  id: 'finish',
  description: 'Works for `ms`, then answers',
  inputSchema: z.object({ label: z.string(), ms: z.number() }),
  execute: async ({ label, ms: wait }) => {
    await new Promise((resolve) => setTimeout(resolve, wait));
    finished.set(label, performance.now());
    return `finished ${label}`;
  },
});

const requests = new Map<string, number>();

/** One MCPServer on its own 127.0.0.1 port; `store` shared by every instance in Redis mode. */
async function startInstance(store?: MCPTaskStore) {
  const server = new MCPServer({
    id: 'tasks-latency',
    name: 'tasks-latency',
    version: '1.0.0',
    tools: { finish },
    tasks: {
      tools: { finish: 'required' },
      pollIntervalMs: POLL_INTERVAL_MS,
      maxTasksPerPrincipal: 10_000,
      ...(store ? { store } : {}),
    },
  });
  const httpServer = http.createServer((req, res) => {
    const method = String(req.headers['mcp-method'] ?? req.method);
    requests.set(method, (requests.get(method) ?? 0) + 1);
    void server.startHTTP({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), httpPath: '/mcp', req, res });
  });
  const { url, close } = await listenLocal(httpServer);
  return {
    url: new URL(`${url}/mcp`),
    close: async () => {
      await server.close();
      await close();
    },
  };
}

/** In Redis mode: two instances on one RedisMCPTaskStore behind a round-robin balancer. */
async function startServing(): Promise<{ url: URL; close(): Promise<void> }> {
  if (!flags.redis) return startInstance();
  const redis = await startRedisServer();
  const clients = await Promise.all(
    Array.from({ length: 4 }, () =>
      createClient({ url: redis.url })
        .on('error', () => {})
        .connect(),
    ),
  );
  const store = (i: number) =>
    new RedisMCPTaskStore({
      client: clients[2 * i] as never,
      subscriber: clients[2 * i + 1] as never,
      serverId: 'tasks-latency',
    });
  const instances = await Promise.all([startInstance(store(0)), startInstance(store(1))]);
  const balancer = await startBalancer(
    instances.map((instance) => instance.url),
    { policy: 'round-robin' },
  );
  return {
    url: balancer.url,
    close: async () => {
      await balancer.close();
      for (const instance of instances) await instance.close();
      await Promise.all(clients.map((client) => client.close()));
      await redis.close();
    },
  };
}

const serving = await startServing();
const mcp = new MCPClient({
  id: 'tasks-latency',
  servers: { bench: { url: serving.url, protocolVersion: '2026-07-28' } },
});
const tools = await mcp.listTools();
const execute = tools.bench_finish?.execute;
if (!execute) throw new Error('the finish tool is missing');

let next = 0;
/** Tools run for 20 ms to two poll intervals, so completions fall at random points of the interval. */
const work = () => ({ label: `t${++next}`, ms: 20 + Math.floor(Math.random() * 2 * POLL_INTERVAL_MS) });

/** A task followed by a tool's execute(): the server pushes its states. */
async function pushed(): Promise<number> {
  const args = work();
  await execute?.(args, {} as never);
  return performance.now() - (finished.get(args.label) ?? Number.NaN);
}

/** A task polled with tasks.get() every pollIntervalMs until it completed. */
async function polled(): Promise<number> {
  const args = work();
  const started = await mcp.tasks.start('bench', 'finish', args);
  const taskId = String(started.taskId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    if ((await mcp.tasks.get('bench', taskId)).status === 'completed')
      return performance.now() - (finished.get(args.label) ?? Number.NaN);
  }
}

/** One tasks/get round trip (the task long finished). */
let roundTripTask: string | undefined;
async function roundTrip(): Promise<number> {
  roundTripTask ??= String((await mcp.tasks.start('bench', 'finish', work())).taskId);
  const start = performance.now();
  await mcp.tasks.get('bench', roundTripTask);
  return performance.now() - start;
}

async function measure(run: () => Promise<number>): Promise<{ seen: number[]; perTask: number }> {
  requests.clear();
  const seen: number[] = [];
  let left = TASKS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) seen.push(await run());
    }),
  );
  const total = [...requests.values()].reduce((sum, count) => sum + count, 0);
  return { seen, perTask: total / TASKS };
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(
  `tasks latency${flags.redis ? ' (2 instances on Redis behind a round-robin balancer)' : ''}: ${TASKS} tasks per mode and round, ${CONCURRENCY} at a time, ${ROUNDS} rounds, pollIntervalMs ${POLL_INTERVAL_MS}; node ${process.version}, ${os.cpus().length} cpus, load ${load()}`,
);
await measure(pushed);
const results = { pushed: [] as number[], polled: [] as number[], roundTrip: [] as number[] };
const costs = { pushed: [] as number[], polled: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['pushed', 'polled'] as const) : (['polled', 'pushed'] as const);
  for (const mode of order) {
    const { seen, perTask } = await measure(mode === 'pushed' ? pushed : polled);
    results[mode].push(...seen);
    costs[mode].push(perTask);
  }
  for (let i = 0; i < 50; i++) results.roundTrip.push(await roundTrip());
}

const row = (name: string, values: number[], cost?: number[]) => {
  const p50 = percentile(values, 50);
  const base = percentile(results.roundTrip, 50);
  const requestsPerTask = cost ? (cost.reduce((a, b) => a + b, 0) / cost.length).toFixed(1) : '';
  console.log(
    `| ${name} | ${ms(p50)} | ${ms(percentile(values, 95))} | ${ms(Math.max(...values))} | ${ratio(p50 / base)} | ${requestsPerTask} |`,
  );
};
console.log(
  '| seen after the tool finished | p50 | p95 | max | p50 / one tasks/get round trip | requests per task |',
);
console.log('|---|---:|---:|---:|---:|---:|');
row('pushed (notifications/tasks, execute())', results.pushed, costs.pushed);
row(`polled (tasks.get() every ${POLL_INTERVAL_MS} ms)`, results.polled, costs.polled);
row('one tasks/get round trip (baseline)', results.roundTrip);
console.log(
  `polled p50 / pushed p50: ${ratio(percentile(results.polled, 50) / percentile(results.pushed, 50))}; load after: ${load()}`,
);
await mcp.disconnect();
await serving.close();
