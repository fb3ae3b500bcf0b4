/**
 * What finished task results make a server hold (docs/SECURITY.md "Tasks"): N anonymous 2026-07-28
 * `tools/call`s run as tasks, each returning S MiB of text, C at a time, over HTTP on 127.0.0.1 to
 * one MCPServer in this process. Prints heap + external after a full GC and RSS before and after,
 * Redis's `used_memory` with `--store redis` (a private redis-server), and how many of the results
 * `tasks/get` still returns. Store options (the bounds) as JSON in `--options`.
 *
 *   node --expose-gc --import tsx bench/task-floods.ts [--store memory|redis] [--count 200]
 *     [--size 3] [--concurrency 10] [--options '{}']
 */
import { parseArgs } from 'node:util';
import { createTool } from '@mastra/core/tools';
import { createClient } from 'redis';
import { z } from 'zod';
import { InMemoryMCPTaskStore, MCPServer, type MCPTaskStore } from '../src/index.js';
import { RedisMCPTaskStore } from '../src/redis/index.js';
import { startRedisServer } from '../test/fixtures/redis-server.js';
import { TASKS_DECLARED, type TaskReply } from '../test/fixtures/task-tools.js';
import { modernRequest, replyOf, serveHttp } from '../test/helpers.js';
import { memoryAfterGc } from './support.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'memory' },
    count: { type: 'string', default: '200' },
    size: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '10' },
    options: { type: 'string', default: '{}' },
  },
});
const MiB = 2 ** 20;

const options = JSON.parse(values.options) as Record<string, number>;
const redisServer = values.store === 'redis' ? await startRedisServer() : undefined;
const redis = redisServer ? createClient({ url: redisServer.url }) : undefined;
await redis?.connect();
const subscriber = redis?.duplicate();
await subscriber?.connect();
const store: MCPTaskStore =
  redis && subscriber
    ? new RedisMCPTaskStore({ client: redis, subscriber, serverId: 'task-flood', ...options })
    : new InMemoryMCPTaskStore(options);
const redisMemory = async () =>
  redis ? Math.round(Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]) / MiB) : undefined;

const sized = createTool({
  id: 'sized',
  description: 'Returns as many MiB of text as asked',
  inputSchema: z.object({ mib: z.number() }),
  execute: async ({ mib }) => 'x'.repeat(mib * MiB),
});
const mcp = new MCPServer({
  id: 'task-flood',
  name: 'task-flood',
  version: '1.0.0',
  tools: { sized },
  tasks: { tools: { sized: 'optional' }, store, pollIntervalMs: 20 },
});
const http = await serveHttp(mcp);
let id = 0;
const rpc = async (method: string, params: Record<string, unknown>) =>
  replyOf<TaskReply>(
    await fetch(http.mcpUrl, modernRequest(method, params, { id: ++id, capabilities: TASKS_DECLARED })),
  );

/** Runs one task to its end; its id. */
async function runTask(): Promise<string> {
  const taskId = String(
    (await rpc('tools/call', { name: 'sized', arguments: { mib: Number(values.size) } })).result?.taskId,
  );
  for (;;) {
    const { result } = await rpc('tasks/get', { taskId });
    if (result?.status !== 'working') return taskId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const before = { ...memoryAfterGc(), redis: await redisMemory() };
const taskIds: string[] = [];
const count = Number(values.count);
await Promise.all(
  Array.from({ length: Number(values.concurrency) }, async () => {
    while (taskIds.length < count) {
      taskIds.push('');
      taskIds[taskIds.length - 1] = await runTask();
    }
  }),
);
const after = { ...memoryAfterGc(), redis: await redisMemory() };
let readable = 0;
for (const taskId of taskIds)
  if ((await rpc('tasks/get', { taskId })).result?.status === 'completed') readable++;
const first = await rpc('tasks/get', { taskId: taskIds[0] as string });

console.log(
  `${count} anonymous tasks of ${values.size} MiB each, ${values.store} store, options ${values.options}`,
);
console.log(
  `heap + external: ${before.heapExternalMiB} -> ${after.heapExternalMiB} MiB; RSS ${before.rssMiB} -> ${after.rssMiB} MiB`,
);
if (redis) console.log(`redis used_memory: ${before.redis} -> ${after.redis} MiB`);
console.log(`results tasks/get still returns: ${readable} of ${count}`);
console.log(`the first task now: ${JSON.stringify(first.error ?? { status: first.result?.status })}`);

await http.close();
await mcp.close();
await subscriber?.quit();
await redis?.quit();
await redisServer?.close();
