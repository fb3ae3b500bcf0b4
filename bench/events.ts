/**
 * MCP Events (SEP-3415) benchmark, every figure a ratio or a count measured in the same run:
 *   1. latency from `mcpServer.events.emit()` to the consumer's `for await` loop receiving the
 *      occurrence (p50 / p99), for push, poll and webhook delivery, one occurrence at a time after a
 *      random pause (so emissions fall at random points of the poll interval); baselines from the
 *      same rounds: one SDK request round trip to the same server (an empty `events/poll`; for push
 *      and poll), and the one-way time of a bare https POST from the server process to the same
 *      webhook endpoint (for webhook). Poll latency is set by the poll interval, printed beside it;
 *   2. `events.handleWebhook()` throughput: pre-signed deliveries POSTed from the server process,
 *      N in flight, to a real https endpoint that calls it, against the same endpoint answering 200
 *      once it read the body; and called in this process with pre-signed `Request`s, against
 *      `standardwebhooks` verification alone.
 * The server is MCPServer (`startHTTP`, events with webhooks) in a child process (this file with
 * --serve) on 127.0.0.1 and an ephemeral port; the MCPClient, the https endpoint (a certificate
 * made for the run, trusted by the server's webhook `fetch`) and the clock are in this process.
 * Times that cross processes use `performance.timeOrigin + performance.now()` on both sides,
 * corrected by the offset measured over the child's stdin/stdout (printed with its uncertainty).
 *
 *   npm run bench:events   (flags: --occurrences <n> per mode and round, --warmup <n>, --rounds <n>,
 *                           --poll-interval <ms>, --deliveries <n> per https round, --concurrency <n>,
 *                           --handler-calls <n> per in-process round)
 */
import { once } from 'node:events';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Webhook } from 'standardwebhooks';
import { MCPClient, type MCPEventDeliveryMode } from '../src/index.js';
import { generateWebhookSecret, PollEventsResultSchema } from '../src/shared/events-wire.js';
import { eventsServer } from '../test/fixtures/events.js';
import { tickTypes } from '../test/fixtures/events-soak.js';
import { trustingFetch } from '../test/fixtures/local-tls.js';
import { deliveryHeaders, startWebhookEndpoint } from '../test/fixtures/webhook-endpoint.js';
import { bearerAuth, serveHttp } from '../test/helpers.js';
import { MODERN, median, ms, percentile, ratio, spawnHttpServers, stop } from './support.js';

const SELF = fileURLToPath(import.meta.url);
/** A clock both processes share: wall time at process start plus monotonic time since. */
const now = () => performance.timeOrigin + performance.now();

/** A delivery as the server would send it, signed for `id` with `secret`. */
function signedDelivery(secret: string, id: string, eventId: string, lane: string) {
  const body = JSON.stringify({
    eventId,
    name: 'tick',
    timestamp: new Date().toISOString(),
    data: { lane, seq: 0, sentAt: 0 },
    cursor: null,
  });
  return { body, headers: deliveryHeaders(body, { secret, subscriptionId: id, messageId: eventId }) };
}

// ---- the server child --------------------------------------------------------------------------

/**
 * `--serve <certificate, base64> <poll interval>`: MCPServer over HTTP, port on the first line;
 * then one reply line per command line on stdin; exits when stdin ends.
 */
async function serve(certificate: string, pollIntervalMs: number): Promise<void> {
  const trusted = trustingFetch(Buffer.from(certificate, 'base64').toString('utf8'));
  const server = eventsServer({
    types: tickTypes(),
    pollIntervalMs,
    webhook: { allowPrivateAddresses: true, fetch: trusted.fetch },
  });
  const http = await serveHttp(server, { before: bearerAuth });
  process.stdout.write(`${JSON.stringify([Number(http.mcpUrl.port)])}\n`);
  const commands: Record<string, (args: string[]) => Promise<string>> = {
    clock: async () => String(now()),
    emit: async ([lane = '', seq = '0']) => {
      await server.events.emit('tick', { lane, seq: Number(seq), sentAt: now() });
      return 'ok';
    },
    /** Bare POSTs of a delivery-sized body, one at a time after the same random pause, each stamped with its send time. */
    post: async ([url = '', count = '0']) => {
      const body = signedDelivery(generateWebhookSecret(), 'sub_bare', 'bare', 'bare').body;
      for (let i = 0; i < Number(count); i++) {
        await delay(Math.random() * pollIntervalMs);
        const response = await trusted.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-bench-sent': String(now()) },
          body,
        });
        await response.arrayBuffer();
      }
      return 'ok';
    },
    /** Pre-signed deliveries, `concurrency` in flight; answers the elapsed ms and the non-200 count. */
    blast: async ([url = '', id = '', secret = '', count = '0', concurrency = '1', tag = '']) => {
      const deliveries = Array.from({ length: Number(count) }, (_, i) =>
        signedDelivery(secret, id, `${tag}-${i}`, 'blast'),
      );
      let next = 0;
      let failed = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: Number(concurrency) }, async () => {
          for (let delivery = deliveries[next++]; delivery; delivery = deliveries[next++]) {
            const response = await trusted.fetch(url, { method: 'POST', ...delivery });
            await response.arrayBuffer();
            if (response.status !== 200) failed += 1;
          }
        }),
      );
      return `${performance.now() - started} ${failed}`;
    },
  };
  for await (const line of createInterface({ input: process.stdin })) {
    const [name = '', ...args] = line.split(' ');
    const command = commands[name];
    process.stdout.write(`${command ? await command(args) : `unknown command ${name}`}\n`);
  }
  await server.close();
  await http.close();
  await trusted.close();
  process.exit(0);
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] ?? '', Number(process.argv[4]));
} else {
  await main();
}

// ---- the bench ---------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      occurrences: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
      'poll-interval': { type: 'string', default: '25' },
      deliveries: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '16' },
      'handler-calls': { type: 'string', default: '10000' },
    },
  });
  const OCCURRENCES = Number(flags.occurrences);
  const WARMUP = Number(flags.warmup);
  const ROUNDS = Number(flags.rounds);
  const POLL_MS = Number(flags['poll-interval']);
  const DELIVERIES = Number(flags.deliveries);
  const CONCURRENCY = Number(flags.concurrency);
  const HANDLER_CALLS = Number(flags['handler-calls']);
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(
    `mastra-mcp events bench ${new Date().toISOString()}: node ${process.version}, load ${load()}, ${ROUNDS} rounds, ` +
      `${OCCURRENCES} occurrences per mode and round (after ${WARMUP} warm-up), poll interval ${POLL_MS} ms`,
  );

  // The https endpoint: handleWebhook, a bare 200, or (stamped requests) the one-way baseline.
  const holder: { mcp?: MCPClient; bare: boolean; oneWay: number[]; offset: number } = {
    bare: false,
    oneWay: [],
    offset: 0,
  };
  const endpoint = await startWebhookEndpoint(async (request) => {
    const sent = request.headers.get('x-bench-sent');
    if (sent !== null || holder.bare) {
      await request.text();
      if (sent !== null) holder.oneWay.push(now() - (Number(sent) - holder.offset));
      return new Response(null, { status: 200 });
    }
    return (holder.mcp as MCPClient).events.handleWebhook(request);
  });
  const fixture = await spawnHttpServers(
    SELF,
    ['--serve', Buffer.from(endpoint.cert).toString('base64'), String(POLL_MS)],
    ['--import', 'tsx'],
  );
  const url = fixture.urls[0] as URL;
  const ask = async (line: string) => {
    fixture.child.stdin?.write(`${line}\n`);
    return fixture.nextLine();
  };

  // The child's clock against ours: the ping over stdin/stdout with the shortest round trip.
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < 50; i++) {
    const before = now();
    const theirs = Number(await ask('clock'));
    const after = now();
    if (after - before < best.rtt) best = { rtt: after - before, offset: theirs - (before + after) / 2 };
  }
  holder.offset = best.offset;

  const secret = generateWebhookSecret();
  const auth = { headers: { authorization: 'Bearer bench' } };
  const mcp = new MCPClient({
    id: 'bench-events',
    registerProcessHooks: false,
    servers: { bench: { url, protocolVersion: MODERN, requestInit: auth } },
    webhook: { url: endpoint.url, secret },
  });
  holder.mcp = mcp;
  const raw = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await raw.connect(new StreamableHTTPClientTransport(url, { requestInit: auth }));

  /** emit() in the child to the loop here, one occurrence at a time. */
  async function latency(mode: MCPEventDeliveryMode, round: number): Promise<number[]> {
    const lane = `${mode}-${round}`;
    const subscription = await mcp.events.subscribe(
      'bench',
      'tick',
      { lane },
      { delivery: mode, minPollIntervalMs: 0 },
    );
    const iterator = subscription[Symbol.asyncIterator]();
    const times: number[] = [];
    for (let i = 0; i < WARMUP + OCCURRENCES; i++) {
      await delay(Math.random() * POLL_MS);
      const received = iterator.next().then((next) => ({ next, at: now() }));
      const [{ next, at }] = await Promise.all([received, ask(`emit ${lane} ${i}`)]);
      if (next.done || next.value.data.seq !== i) throw new Error(`${mode}: expected occurrence ${i}`);
      if (i >= WARMUP) times.push(at - (Number(next.value.data.sentAt) - best.offset));
    }
    await subscription.cancel();
    return times;
  }

  async function roundTrips(count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      await delay(Math.random() * POLL_MS);
      const started = performance.now();
      await raw.request(
        { method: 'events/poll', params: { name: 'tick', arguments: { lane: 'rtt' }, cursor: null } },
        PollEventsResultSchema,
      );
      times.push(performance.now() - started);
    }
    return times;
  }

  const samples: Record<'push' | 'poll' | 'webhook' | 'rtt' | 'post', number[]> = {
    push: [],
    poll: [],
    webhook: [],
    rtt: [],
    post: [],
  };
  await roundTrips(WARMUP);
  await ask(`post ${endpoint.url} ${WARMUP}`);
  holder.oneWay = [];
  for (let round = 0; round < ROUNDS; round++) {
    samples.rtt.push(...(await roundTrips(OCCURRENCES)));
    for (const mode of ['push', 'poll', 'webhook'] as const)
      samples[mode].push(...(await latency(mode, round)));
    await ask(`post ${endpoint.url} ${OCCURRENCES}`);
    console.error(`  latency round ${round + 1} of ${ROUNDS} done`);
  }
  samples.post = holder.oneWay;

  // ---- handleWebhook throughput ----
  const blast = await mcp.events.subscribe('bench', 'tick', { lane: 'blast' }, { delivery: 'webhook' });
  let consumed = 0;
  const consumer = (async () => {
    for await (const _ of blast) consumed += 1;
  })();
  await ask('emit blast 0');
  while (consumed < 1) await delay(10);
  const id = endpoint.answered
    .filter((answer) => answer.headers['x-mcp-subscription-id'] && !answer.headers['x-bench-sent'])
    .at(-1)?.headers['x-mcp-subscription-id'] as string;
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const https = {
    handler: [] as number[],
    bare: [] as number[],
    handlerCpu: [] as number[],
    bareCpu: [] as number[],
  };
  let failed = 0;
  for (let round = -1; round < ROUNDS; round++) {
    // Round -1 warms both paths up and is not recorded; the order alternates.
    for (const bare of round % 2 === 0 ? [true, false] : [false, true]) {
      holder.bare = bare;
      const expected = consumed + (bare ? 0 : DELIVERIES);
      const cpu = process.cpuUsage();
      const [elapsed = '0', errors = '0'] = (
        await ask(`blast ${endpoint.url} ${id} ${secret} ${DELIVERIES} ${CONCURRENCY} r${round}${bare}`)
      ).split(' ');
      const used = cpuMs(cpu);
      failed += Number(errors);
      while (consumed < expected) await delay(10);
      if (round < 0) continue;
      (bare ? https.bare : https.handler).push((DELIVERIES / Number(elapsed)) * 1000);
      (bare ? https.bareCpu : https.handlerCpu).push((used * 1000) / DELIVERIES);
    }
  }
  holder.bare = false;

  // In this process: handleWebhook() with pre-signed Requests vs standardwebhooks verify() alone.
  const inProcess = { handler: [] as number[], verifyOnce: [] as number[], verifyEach: [] as number[] };
  for (let round = -1; round < ROUNDS; round++) {
    const deliveries = Array.from({ length: HANDLER_CALLS }, (_, i) =>
      signedDelivery(secret, id, `inproc-${round}-${i}`, 'blast'),
    );
    const requests = deliveries.map(
      ({ body, headers }) => new Request(endpoint.url, { method: 'POST', headers, body }),
    );
    const expected = consumed + HANDLER_CALLS;
    let started = performance.now();
    for (const request of requests) {
      const response = await mcp.events.handleWebhook(request);
      if (response.status !== 200) failed += 1;
    }
    const handlerMs = performance.now() - started;
    while (consumed < expected) await delay(10);
    const webhook = new Webhook(secret);
    started = performance.now();
    for (const { body, headers } of deliveries) webhook.verify(body, headers);
    const onceMs = performance.now() - started;
    started = performance.now();
    for (const { body, headers } of deliveries) new Webhook(secret).verify(body, headers);
    const eachMs = performance.now() - started;
    if (round < 0) continue;
    inProcess.handler.push((handlerMs * 1000) / HANDLER_CALLS);
    inProcess.verifyOnce.push((onceMs * 1000) / HANDLER_CALLS);
    inProcess.verifyEach.push((eachMs * 1000) / HANDLER_CALLS);
  }
  await blast.cancel();
  await consumer;

  await mcp.disconnect();
  await raw.close();
  fixture.child.stdin?.end();
  await Promise.race([once(fixture.child, 'exit'), delay(5000)]);
  await stop(fixture.child);
  await endpoint.close();

  // ---- report ----
  const p = (values: number[]) => `${ms(median(values))} / ${ms(percentile(values, 99))}`;
  const versus = (values: number[], base: number[]) =>
    `${ratio(median(values) / median(base))} / ${ratio(percentile(values, 99) / percentile(base, 99))}`;
  console.log(
    `\nclock offset of the server child ${best.offset.toFixed(3)} ms, uncertainty +-${(best.rtt / 2).toFixed(3)} ms (half the best stdin/stdout round trip)`,
  );
  console.log(
    `\n| delivery | settings | emit() -> loop, p50 / p99 | baseline (same rounds) | baseline p50 / p99 | ratio p50 / p99 |\n|---|---|---|---|---|---|`,
  );
  console.log(
    `| push | events/stream over Streamable HTTP | ${p(samples.push)} | SDK events/poll round trip | ${p(samples.rtt)} | ${versus(samples.push, samples.rtt)} |`,
  );
  console.log(
    `| poll | server pollIntervalMs ${POLL_MS}, client minPollIntervalMs 0 | ${p(samples.poll)} | SDK events/poll round trip | ${p(samples.rtt)} | ${versus(samples.poll, samples.rtt)} |`,
  );
  console.log(
    `| webhook | signed POST, https endpoint -> handleWebhook() | ${p(samples.webhook)} | one-way bare https POST, server process -> endpoint | ${p(samples.post)} | ${versus(samples.webhook, samples.post)} |`,
  );
  console.log(
    `\n${samples.push.length} occurrences per mode, ${samples.rtt.length} empty polls, ${samples.post.length} bare POSTs; poll latency expected near interval / 2 + a poll round trip = ${ms(POLL_MS / 2 + median(samples.rtt))}`,
  );
  const rate = (values: number[]) =>
    `${median(values).toFixed(0)} (${values.map((v) => v.toFixed(0)).join(' / ')})`;
  const us = (values: number[]) => `${median(values).toFixed(1)} us`;
  console.log(
    `\n| handleWebhook() throughput | deliveries/s, median (rounds) | us per delivery | ratio |\n|---|---|---|---|`,
  );
  console.log(
    `| https endpoint -> handleWebhook(), ${CONCURRENCY} in flight from the server process | ${rate(https.handler)} | ${us(https.handlerCpu)} CPU here | ${ratio(median(https.handler) / median(https.bare))} of bare; CPU ${ratio(median(https.handlerCpu) / median(https.bareCpu))} |`,
  );
  console.log(
    `| https endpoint answering 200 after reading the body (bare) | ${rate(https.bare)} | ${us(https.bareCpu)} CPU here | |`,
  );
  const perSecond = (values: number[]) => values.map((value) => 1e6 / value);
  console.log(
    `| handleWebhook() in process, pre-signed Request, one at a time | ${rate(perSecond(inProcess.handler))} | ${us(inProcess.handler)} | ${ratio(median(inProcess.handler) / median(inProcess.verifyEach))} the time of verify with a new Webhook, ${ratio(median(inProcess.handler) / median(inProcess.verifyOnce))} of verify alone |`,
  );
  console.log(
    `| standardwebhooks verify(), new Webhook(secret) per call (as handleWebhook does) | ${rate(perSecond(inProcess.verifyEach))} | ${us(inProcess.verifyEach)} | |`,
  );
  console.log(
    `| standardwebhooks verify() alone, one Webhook | ${rate(perSecond(inProcess.verifyOnce))} | ${us(inProcess.verifyOnce)} | |`,
  );
  console.log(
    `\n${DELIVERIES} deliveries per https round, ${HANDLER_CALLS} calls per in-process round; ${failed} answered other than 200; ` +
      `${consumed} occurrences reached the loop; load at the end ${load()}`,
  );
  process.exit(failed === 0 ? 0 : 1);
}
