/**
 * Scale-out benchmark (issue 8), in one run, side by side:
 *   1. throughput: a fixed number of 2026-07-28 SDK clients, each with one request in flight
 *      (`tools/call` of a cheap tool and `tools/list`, alternately), for a fixed time after a
 *      warm-up, against: one MCPServer process with the in-memory defaults (the baseline); and 1, 2
 *      and 3 MCPServer processes sharing a private redis-server (`notifications.bus` a
 *      RedisMCPServerEventBus, plus the other scale-out options of `SCALED`), reached either with the
 *      clients spread over the instances (client k talks to instance k mod N, no proxy) or through
 *      a round-robin reverse proxy in its own process. Requests/s, p50/p99 of each method, the CPU
 *      each process spent per request (from /proc), and the ratio against the baseline;
 *   2. notification latency: `toolActions.notifyListChanged()` on an instance to the
 *      `notifications/tools/list_changed` handler of a client listening (`subscriptions/listen`) on
 *      (i) the in-memory instance itself, (ii) a Redis-bus instance itself, (iii) another Redis-bus
 *      instance. Both ends read `process.hrtime.bigint()`: on Linux one monotonic clock for every
 *      process of the host, so no offset to correct.
 * The instances are test/fixtures/redis-instance.ts children (driven by instance-process.ts), Redis
 * is the tests' private redis-server (AOF, fsync always), the proxy bench/fixtures/round-robin-proxy.ts.
 * The load generator shares the machine's cores with all of them: see docs/BENCHMARKS.md for what
 * the ratios can show. Every child is stopped at the end, on an error and on SIGINT.
 *
 *   npm run bench:scale    (flags: --duration <ms> measured per configuration and round, default 5000;
 *                           --warmup <ms> per configuration and round, default 2000; --prewarm <n>
 *                           requests to each instance and proxy alone first, default 10000; --clients <n>,
 *                           default 12; --rounds <n>, default 1; --notifications <n> per path,
 *                           default 300)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import { type Instance, startInstance } from '../test/fixtures/instance-process.js';
import type { InstanceOptions } from '../test/fixtures/redis-instance.js';
import { type RedisServer, startRedisServer } from '../test/fixtures/redis-server.js';
import { connectHttp } from '../test/helpers.js';
import {
  median,
  percentile,
  processCpuMs,
  ratio,
  type ServerChild,
  spawnHttpServers,
  stop,
} from './support.js';

const TOOL = 'echo';

/**
 * What every Redis instance runs with besides the bus: the shared request-state key, legacy streams
 * in a RedisResumabilityEventStore and MCP Events on a RedisMCPEventStore. Only the bus and the key touch the
 * requests measured here; the stores are on to measure a fully scaled-out configuration.
 */
const SCALED_KEY = randomBytes(32).toString('base64');
const SCALED = (instanceId: string): InstanceOptions => ({
  requestState: { key: SCALED_KEY, instanceId },
  legacyEventStore: {},
  events: {},
});

interface Options {
  durationMs: number;
  warmupMs: number;
  prewarm: number;
  clients: number;
  rounds: number;
  notifications: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '5000' },
      warmup: { type: 'string', default: '2000' },
      prewarm: { type: 'string', default: '10000' },
      clients: { type: 'string', default: '12' },
      rounds: { type: 'string', default: '1' },
      notifications: { type: 'string', default: '300' },
    },
  });
  const positive = (name: keyof typeof values) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n <= 0)
      throw new Error(`--${name} must be a positive integer, got '${values[name]}'`);
    return n;
  };
  return {
    durationMs: positive('duration'),
    warmupMs: positive('warmup'),
    prewarm: positive('prewarm'),
    clients: positive('clients'),
    rounds: positive('rounds'),
    notifications: positive('notifications'),
  };
}

// ---------------------------------------------------------------------------------------------
// Processes: everything started is registered here and stopped at the end, on errors and SIGINT.
// ---------------------------------------------------------------------------------------------

const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;

/** Stops everything once; the SIGINT handler and the end of the run share it. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  })();
  return cleaning;
}

async function instance(redis: RedisServer, options: InstanceOptions): Promise<Instance> {
  const started = await startInstance(redis.url, options);
  cleanups.push(async () => {
    if ((await started.stop()) === 'hung') await started.kill();
  });
  await started.send({ action: 'addTool', name: TOOL });
  return started;
}

async function proxy(backends: Instance[]): Promise<ServerChild> {
  const started = await spawnHttpServers(
    'bench/fixtures/round-robin-proxy.ts',
    backends.map((backend) => backend.url.origin),
    ['--import', 'tsx'],
  );
  cleanups.push(() => stop(started.child));
  return started;
}

async function connect(url: URL): Promise<Client> {
  const client = await connectHttp(url, 'modern');
  cleanups.push(() => client.close());
  return client;
}

// ---------------------------------------------------------------------------------------------
// Throughput.
// ---------------------------------------------------------------------------------------------

interface Configuration {
  label: string;
  /** The processes serving it (their CPU is the server's). */
  instances: Instance[];
  /** Where the clients connect: one URL each, in turn. */
  urls: URL[];
  proxy?: ServerChild;
}

interface Measurement {
  errors: number;
  firstError?: string;
  perSecond: number;
  call: number[];
  list: number[];
  /** CPU per request, microseconds: the instances together, the proxy, this process. */
  serverCpuUs: number;
  proxyCpuUs: number | undefined;
  /** CPU milliseconds each instance spent (how evenly the requests were spread). */
  instanceCpuMs: number[];
  clientCpuUs: number;
}

/**
 * Each client keeps one request in flight, alternating tools/call and tools/list, until the
 * deadline or until `budget` requests were sent.
 */
async function drive(clients: Client[], durationMs: number, budget = Number.POSITIVE_INFINITY) {
  const call: number[] = [];
  const list: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + durationMs;
  let sent = 0;
  await Promise.all(
    clients.map(async (client, k) => {
      for (let n = k; performance.now() < deadline && sent++ < budget && errors <= 100; n++) {
        const t0 = performance.now();
        try {
          if (n % 2 === 0) {
            const result = await client.callTool({ name: TOOL, arguments: {} });
            const text = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text;
            if (text !== TOOL) throw new Error(`unexpected tools/call result ${JSON.stringify(result)}`);
            call.push(performance.now() - t0);
          } else {
            const { tools } = await client.listTools();
            if (!tools.some((tool) => tool.name === TOOL)) throw new Error(`tools/list without '${TOOL}'`);
            list.push(performance.now() - t0);
          }
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  return { call, list, errors, firstError, elapsedMs: performance.now() - started };
}

const cpuOf = (pids: Array<number | undefined>) => pids.map((pid) => processCpuMs(pid) ?? Number.NaN);

/** Connects `count` clients, client k to `urls[k mod urls.length]`, for the time of `use`. */
async function withClients<T>(
  urls: URL[],
  count: number,
  use: (clients: Client[]) => Promise<T>,
): Promise<T> {
  const clients = await Promise.all(
    Array.from({ length: count }, (_, k) => connectHttp(urls[k % urls.length] as URL, 'modern')),
  );
  try {
    return await use(clients);
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
  }
}

function measure(configuration: Configuration, options: Options): Promise<Measurement> {
  return withClients(configuration.urls, options.clients, async (clients) => {
    await drive(clients, options.warmupMs);
    const pids = configuration.instances.map((i) => i.child.pid);
    const before = cpuOf([...pids, configuration.proxy?.child.pid]);
    const own = process.cpuUsage();
    const outcome = await drive(clients, options.durationMs);
    const used = process.cpuUsage(own);
    const after = cpuOf([...pids, configuration.proxy?.child.pid]);
    const spent = after.map((value, i) => value - (before[i] as number));
    const instancesCpu = spent.slice(0, pids.length);
    const serverCpuMs = instancesCpu.reduce((sum, value) => sum + value, 0);
    const requests = outcome.call.length + outcome.list.length;
    const perRequest = (cpuMs: number) => (cpuMs * 1000) / requests;
    return {
      errors: outcome.errors,
      ...(outcome.firstError ? { firstError: outcome.firstError } : {}),
      perSecond: (requests * 1000) / outcome.elapsedMs,
      call: outcome.call,
      list: outcome.list,
      serverCpuUs: perRequest(serverCpuMs),
      instanceCpuMs: instancesCpu,
      proxyCpuUs: configuration.proxy ? perRequest(spent.at(-1) as number) : undefined,
      clientCpuUs: (used.user + used.system) / requests,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Notification latency.
// ---------------------------------------------------------------------------------------------

interface Listener {
  /** Resolves with the arrival time of the `n`th list_changed (1-based), or rejects after 10 s. */
  arrival(n: number): Promise<bigint>;
}

async function listener(target: Instance, name: string): Promise<Listener> {
  const client = await connect(target.url);
  const arrivals: bigint[] = [];
  let wake = () => {};
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    arrivals.push(process.hrtime.bigint());
    wake();
  });
  const stream = await client.listen({ toolsListChanged: true });
  cleanups.push(() => stream.close());
  return {
    arrival: async (n) => {
      const deadline = Date.now() + 10_000;
      while (arrivals.length < n) {
        if (Date.now() > deadline) throw new Error(`list_changed #${n} never reached the ${name} listener`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return arrivals[n - 1] as bigint;
    },
  };
}

const sinceMs = (sentAt: unknown, arrived: bigint) => Number(arrived - BigInt(sentAt as string)) / 1e6;

async function notificationLatency(memory: Instance, a: Instance, b: Instance, count: number) {
  const inMemory = await listener(memory, 'in-memory');
  const local = await listener(a, 'same Redis instance');
  const remote = await listener(b, 'other Redis instance');
  const samples = { inMemory: [] as number[], local: [] as number[], remote: [] as number[] };
  const warmup = 20;
  for (let n = 1; n <= warmup + count; n++) {
    const sentHere = await memory.send({ action: 'toolsChanged' });
    const here = sinceMs(sentHere, await inMemory.arrival(n));
    const sentThere = await a.send({ action: 'toolsChanged' });
    const [near, far] = await Promise.all([local.arrival(n), remote.arrival(n)]);
    if (n <= warmup) continue;
    samples.inMemory.push(here);
    samples.local.push(sinceMs(sentThere, near));
    samples.remote.push(sinceMs(sentThere, far));
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// Report.
// ---------------------------------------------------------------------------------------------

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function sourceRevision(): string {
  const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
  return git('status', '--porcelain', '--', 'src', 'test/fixtures') ? `${head} + uncommitted changes` : head;
}

const fixed = (value: number | undefined, digits = 2) =>
  value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);
const p50p99 = (values: number[]) => `${fixed(percentile(values, 50))} / ${fixed(percentile(values, 99))}`;

function throughputTable(rows: Array<{ configuration: Configuration; runs: Measurement[] }>): string {
  const baseline = median(rows[0]?.runs.map((run) => run.perSecond) ?? []);
  const header = [
    'configuration',
    'requests/s',
    'vs 1 in-memory',
    'tools/call p50 / p99 ms',
    'tools/list p50 / p99 ms',
    'server CPU us/req',
    'CPU split over instances',
    'proxy CPU us/req',
    'client CPU us/req',
  ];
  const lines = rows.map(({ configuration, runs }) => {
    const perSecond = median(runs.map((run) => run.perSecond));
    const errors = runs.reduce((sum, run) => sum + run.errors, 0);
    const instanceCpu = configuration.instances.map((_, i) =>
      runs.reduce((sum, run) => sum + (run.instanceCpuMs[i] as number), 0),
    );
    const serverCpu = instanceCpu.reduce((sum, value) => sum + value, 0);
    return [
      configuration.label,
      `${perSecond.toFixed(0)}${runs.length > 1 ? ` (${runs.map((run) => run.perSecond.toFixed(0)).join(' / ')})` : ''}${errors ? ` ${errors} ERRORS: ${runs.find((run) => run.firstError)?.firstError}` : ''}`,
      ratio(perSecond / baseline),
      p50p99(runs.flatMap((run) => run.call)),
      p50p99(runs.flatMap((run) => run.list)),
      fixed(median(runs.map((run) => run.serverCpuUs)), 0),
      instanceCpu.map((value) => `${((value / serverCpu) * 100).toFixed(0)}%`).join(' / '),
      configuration.proxy ? fixed(median(runs.map((run) => run.proxyCpuUs as number)), 0) : '-',
      fixed(median(runs.map((run) => run.clientCpuUs)), 0),
    ];
  });
  return markdown(header, lines);
}

function latencyTable(samples: Awaited<ReturnType<typeof notificationLatency>>): string {
  const base = samples.inMemory;
  const row = (label: string, values: number[]) => {
    const added = (p: number) => fixed(percentile(values, p) - percentile(base, p), 3);
    const times = (p: number) => ratio(percentile(values, p) / percentile(base, p));
    return [
      label,
      `${fixed(percentile(values, 50), 3)} / ${fixed(percentile(values, 99), 3)}`,
      values === base ? '' : `${added(50)} / ${added(99)}`,
      values === base ? '' : `${times(50)} / ${times(99)}`,
    ];
  };
  return markdown(
    [
      'notifyListChanged() -> client handler',
      'p50 / p99 ms',
      'added vs in-memory p50 / p99 ms',
      'ratio p50 / p99',
    ],
    [
      row('(i) same instance, in-memory default (no bus)', samples.inMemory),
      row('(ii) same instance, Redis bus', samples.local),
      row('(iii) another instance, through Redis', samples.remote),
    ],
  );
}

function markdown(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions();
  const nproc = spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim() || String(os.availableParallelism());
  console.log(
    `mastra-mcp scale bench ${new Date().toISOString()}: node ${process.version}, nproc ${nproc} ` +
      `(${os.cpus()[0]?.model ?? '?'}), load average ${loadavg()}, source ${sourceRevision()}\n` +
      `${options.clients} 2026-07-28 SDK clients, one request in flight each (tools/call '${TOOL}' and tools/list ` +
      `alternately); warm-up ${options.warmupMs} ms, measured ${options.durationMs} ms, ${options.rounds} round(s); ` +
      `Redis instances: notifications.bus + ${Object.keys(SCALED('a')).join(', ')}`,
  );
  const redis = await startRedisServer();
  cleanups.push(() => redis.close());
  const memory = await instance(redis, { bus: false });
  const scaled = await Promise.all(['a', 'b', 'c'].map((id) => instance(redis, SCALED(id))));
  const first = (n: number) => scaled.slice(0, n);
  const proxies = await Promise.all([1, 2, 3].map((n) => proxy(first(n))));

  const configurations: Configuration[] = [
    { label: '1 instance, in-memory (baseline)', instances: [memory], urls: [memory.url] },
    ...[1, 2, 3].map((n) => ({
      label: n === 1 ? '1 Redis instance, direct' : `${n} Redis instances, clients spread`,
      instances: first(n),
      urls: first(n).map((i) => i.url),
    })),
    ...[1, 2, 3].map((n) => {
      const front = proxies[n - 1] as ServerChild;
      return {
        label: `${n} Redis instance${n > 1 ? 's' : ''}, round-robin proxy`,
        instances: first(n),
        urls: front.urls,
        proxy: front,
      };
    }),
  ];
  // A fresh process spends 2-3 times the CPU per request of a warm one over its first ~6,000
  // requests (JIT, heap sizing), so every instance and proxy first serves the load alone.
  for (const urls of [memory, ...scaled].map((i) => [i.url]).concat(proxies.map((front) => front.urls))) {
    await withClients(urls, options.clients, (clients) =>
      drive(clients, Number.POSITIVE_INFINITY, options.prewarm),
    );
  }
  console.log(`  every instance and proxy served ${options.prewarm} requests alone first; load ${loadavg()}`);
  const runs = configurations.map((configuration) => ({ configuration, runs: [] as Measurement[] }));
  for (let round = 1; round <= options.rounds; round++) {
    // Each round starts one configuration later, so none is always the first or the last.
    const shift = (round - 1) % runs.length;
    for (const row of [...runs.slice(shift), ...runs.slice(0, shift)]) {
      const m = await measure(row.configuration, options);
      row.runs.push(m);
      console.log(
        `  round ${round} ${row.configuration.label.padEnd(38)} ${m.perSecond.toFixed(0).padStart(5)} req/s  ` +
          `call p50 ${fixed(percentile(m.call, 50))} ms  list p50 ${fixed(percentile(m.list, 50))} ms  ` +
          `server ${fixed(m.serverCpuUs, 0)} us/req  load ${loadavg()}` +
          (m.errors ? `  ERRORS ${m.errors}: ${m.firstError}` : ''),
      );
    }
  }
  const samples = await notificationLatency(
    memory,
    scaled[0] as Instance,
    scaled[1] as Instance,
    options.notifications,
  );
  console.log(`\nload average at the end: ${loadavg()}\n\n${throughputTable(runs)}\n`);
  console.log(
    `${latencyTable(samples)}\n\n${samples.inMemory.length} notifications per path (after 20 not counted)`,
  );
  if (runs.some((row) => row.runs.some((run) => run.errors > 0))) process.exitCode = 1;
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  console.error('interrupted: stopping every child process');
  void cleanUp().finally(() => process.exit(130));
});
try {
  await main();
} catch (error) {
  // Once interrupted, what fails is the run being torn down, not worth a report.
  if (!interrupted) throw error;
} finally {
  await cleanUp();
}
