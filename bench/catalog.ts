/**
 * Cached tool catalog benchmark, every figure a ratio or a count measured in the same run:
 *   1. cold start from a cached catalog (`toolsFromDefinitions()` over the JSON of
 *      `listToolDefinitions()`) against live discovery (`listTools()`), each with a fresh
 *      MCPClient, over 20 Streamable HTTP servers of 50 tools each (plain JSON Schemas: typed
 *      properties, enums, nested objects, arrays, oneOf; a third with an output schema), rounds
 *      interleaved;
 *   2. TCP connections and HTTP requests the servers saw while the cached catalog was built
 *      (counted in the server child), then while one cached tool ran: only its server;
 *   3. `mastra-mcp generate`'s JSON Schema -> TypeScript conversion (`convertSchema()`) of one schema
 *      just under the subschema node budget (`SCHEMA_MAX_NODES`) and one just over it, which
 *      widens to `unknown` with a warning.
 * The servers are the raw SDK's McpServer (bench/fixtures/catalog-server.mjs) in one child process.
 *
 *   npm run bench:catalog   (flags: --rounds <n>, --servers <n>, --tools <n> per server)
 */

import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { measureSchema, SCHEMA_MAX_NODES } from '../src/client/tools/schema-budget.js';
import { MCPClient, type MCPToolDefinition } from '../src/index.js';
import { convertSchema } from '../src/typegen/convert.js';
import { MODERN, median, ms, ratio, type ServerChild, spawnHttpServers, stop } from './support.js';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    servers: { type: 'string', default: '20' },
    tools: { type: 'string', default: '50' },
  },
});
const ROUNDS = Number(flags.rounds);
const SERVERS = Number(flags.servers);
const TOOLS = Number(flags.tools);
const CATALOG_SERVER = fileURLToPath(new URL('./fixtures/catalog-server.mjs', import.meta.url));
/** Long enough for a connection attempt made in the background to reach the server child. */
const SETTLE_MS = 100;

type Catalog = Record<string, Record<string, MCPToolDefinition>>;
interface Counter {
  connections: number;
  requests: number;
}

async function command(fixture: ServerChild, line: 'counts' | 'reset'): Promise<unknown> {
  fixture.child.stdin?.write(`${line}\n`);
  return JSON.parse(await fixture.nextLine());
}
/** Zeroes the counters and closes idle keep-alive sockets, so anything after it must connect anew. */
const reset = async (fixture: ServerChild) => {
  await command(fixture, 'reset');
  await delay(SETTLE_MS);
};
const counts = async (fixture: ServerChild) => {
  await delay(SETTLE_MS);
  return (await command(fixture, 'counts')) as Counter[];
};
const total = (counters: Counter[]) =>
  counters.reduce(
    (sum, { connections, requests }) => ({
      connections: sum.connections + connections,
      requests: sum.requests + requests,
    }),
    { connections: 0, requests: 0 },
  );

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function client(fixture: ServerChild, id: string): MCPClient {
  return new MCPClient({
    id,
    registerProcessHooks: false,
    servers: Object.fromEntries(fixture.urls.map((url, i) => [`s${i}`, { url, protocolVersion: MODERN }])),
  });
}

function expectTools(tools: object, path: string): void {
  const count = Object.keys(tools).length;
  if (count !== SERVERS * TOOLS) throw new Error(`${path}: ${count} tools, expected ${SERVERS * TOOLS}`);
}

/** Live discovery, cold: a new client connects to every server and lists its tools. */
async function live(fixture: ServerChild, id: string) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const mcp = client(fixture, id);
  const tools = await mcp.listTools();
  const elapsed = performance.now() - started;
  const used = cpuMs(cpu);
  expectTools(tools, 'listTools()');
  await mcp.disconnect();
  return { elapsed, cpu: used };
}

/**
 * The floor under the cached path: compiling the same input schemas with the SDK's default JSON
 * Schema validator on Node (what every tool built without a custom validator does once per schema
 * text). A fresh instance each time, made and warmed up before the clock starts: the shared one
 * keeps every schema it has compiled.
 */
function compileFloor(catalog: string): number {
  const definitions = Object.values(JSON.parse(catalog) as Catalog).flatMap((tools) => Object.values(tools));
  const validator = new AjvJsonSchemaValidator();
  fromJsonSchema({ type: 'object', properties: { warm: { type: 'string' } } }, validator);
  const started = performance.now();
  for (const definition of definitions) fromJsonSchema(definition.inputSchema as JsonSchemaType, validator);
  return performance.now() - started;
}

/** The cached catalog, cold: a new client rebuilds the tools from the catalog's JSON text. */
async function cached(fixture: ServerChild, catalog: string, id: string) {
  await reset(fixture);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const definitions = JSON.parse(catalog) as Catalog;
  const parsed = performance.now();
  const mcp = client(fixture, id);
  const tools = await mcp.toolsFromDefinitions({ definitions });
  const elapsed = performance.now() - started;
  const used = cpuMs(cpu);
  expectTools(tools, 'toolsFromDefinitions()');
  await mcp.disconnect();
  return { elapsed, parse: parsed - started, cpu: used, seen: total(await counts(fixture)) };
}

async function catalogFigures(): Promise<string[]> {
  const fixture = await spawnHttpServers(CATALOG_SERVER, ['--http', String(SERVERS), String(TOOLS)]);
  const source = client(fixture, 'bench-catalog-source');
  const catalog = JSON.stringify(await source.listToolDefinitions());
  await source.disconnect();
  const schemas = (JSON.parse(catalog) as Catalog).s0 ?? {};
  const withOutput = Object.values(schemas).filter((definition) => definition.outputSchema).length;
  // Nothing has built a tool from these schemas yet: the one truly cold rebuild of this process.
  const first = await cached(fixture, catalog, 'bench-catalog-cached-first');

  const times = {
    live: [] as number[],
    cached: [] as number[],
    parse: [] as number[],
    compile: [] as number[],
  };
  const cpu = { live: [] as number[], cached: [] as number[] };
  const seen = { ...first.seen };
  for (let round = -1; round < ROUNDS; round++) {
    // Round -1 warms both code paths up and is not recorded (its connection counts are).
    const discovered = await live(fixture, `bench-catalog-live-${round}`);
    const rebuilt = await cached(fixture, catalog, `bench-catalog-cached-${round}`);
    const compiled = compileFloor(catalog);
    seen.connections += rebuilt.seen.connections;
    seen.requests += rebuilt.seen.requests;
    if (round < 0) continue;
    times.live.push(discovered.elapsed);
    times.cached.push(rebuilt.elapsed);
    times.parse.push(rebuilt.parse);
    times.compile.push(compiled);
    cpu.live.push(discovered.cpu);
    cpu.cached.push(rebuilt.cpu);
  }
  const speedup = median(times.live) / median(times.cached);

  // One cached tool, run once: only its server may see a connection.
  const target = Math.min(7, SERVERS - 1);
  const mcp = client(fixture, 'bench-catalog-execute');
  const tools = (await mcp.toolsFromDefinitions({ definitions: JSON.parse(catalog) as Catalog })) as Record<
    string,
    { execute?: (input: unknown, context: unknown) => Promise<unknown> }
  >;
  await reset(fixture);
  const key = `s${target}_search_issues`;
  const result = await tools[key]?.execute?.({ query: 'bench' }, {});
  if (!result || (result as { error?: unknown }).error) throw new Error(`${key}: ${JSON.stringify(result)}`);
  const after = await counts(fixture);
  await mcp.disconnect();
  await stop(fixture.child);
  const own = after[target] as Counter;
  const others = total(after.filter((_, i) => i !== target));
  const touched = after.filter(({ connections, requests }) => connections + requests > 0).length;
  const zero = (counter: Counter) => (counter.connections + counter.requests === 0 ? 'met' : '**not met**');

  return [
    `catalog: ${SERVERS} servers x ${TOOLS} tools (${withOutput} of each server's with an output schema), ${(catalog.length / 1024).toFixed(0)} KiB of JSON`,
    '\n| measurement | median | client CPU | ratio |\n|---|---|---|---|',
    `| live: new MCPClient + listTools() | ${ms(median(times.live))} | ${ms(median(cpu.live))} | |`,
    `| cached: new MCPClient + toolsFromDefinitions(JSON.parse(catalog)) | ${ms(median(times.cached))} | ${ms(median(cpu.cached))} | **${ratio(speedup)}** faster (target >= 20x: ${speedup >= 20 ? 'met' : '**not met**'}) |`,
    `| of which JSON.parse(catalog) | ${ms(median(times.parse))} | | ${((median(times.parse) / median(times.cached)) * 100).toFixed(1)}% of cached |`,
    `| floor: SDK fromJsonSchema() on the same ${SERVERS * TOOLS} input schemas, no client | ${ms(median(times.compile))} | | cached path = ${ratio(median(times.cached) / median(times.compile))} the floor |`,
    `| first cached build in this process (one sample, no schema compiled yet) | ${ms(first.elapsed)} | ${ms(first.cpu)} | live / first = ${ratio(median(times.live) / first.elapsed)} |`,
    '\n| phase | servers | TCP connections | HTTP requests | target zero |\n|---|---|---|---|---|',
    `| ${ROUNDS + 2} cached builds (incl. first and warm-up) | all ${SERVERS} | ${seen.connections} | ${seen.requests} | ${zero(seen)} |`,
    `| one cached tool run once (\`${key}\`) | s${target} | ${own.connections} | ${own.requests} | (its server connects) |`,
    `| the same run | the other ${SERVERS - 1} | ${others.connections} | ${others.requests} | ${zero(others)} |`,
    `\nservers that saw any traffic during the tool run: ${touched} of ${SERVERS}`,
  ];
}

/** One leaf kind of the large schema and how many subschema nodes it counts as. */
const LEAVES: { nodes: number; schema: (n: number) => object }[] = [
  { nodes: 1, schema: (n) => ({ type: 'string', maxLength: 200, description: `Field ${n}.` }) },
  { nodes: 1, schema: () => ({ type: 'integer', minimum: 0 }) },
  { nodes: 1, schema: () => ({ type: 'string', enum: ['draft', 'review', 'published'] }) },
  { nodes: 1, schema: () => ({ type: 'boolean', default: false }) },
  { nodes: 1, schema: () => ({ type: 'string', format: 'date-time' }) },
  { nodes: 1, schema: () => ({ $ref: '#/$defs/address' }) },
  { nodes: 2, schema: () => ({ type: 'array', items: { type: 'string' }, maxItems: 10 }) },
  { nodes: 3, schema: () => ({ anyOf: [{ type: 'number' }, { type: 'null' }] }) },
];

/**
 * A wide, realistic schema of exactly `nodes` subschemas as `measureSchema()` counts them: a root
 * object of sections, each an object of up to 100 typed fields (enums, formats, arrays, nullable
 * numbers, references to one shared `$defs` entry).
 */
function largeSchema(nodes: number): object {
  const address = {
    type: 'object',
    properties: {
      street: { type: 'string' },
      city: { type: 'string' },
      zip: { type: 'string', pattern: '^[0-9]{5}$' },
      country: { type: 'string', enum: ['DE', 'FR', 'US'] },
    },
    required: ['street', 'city'],
  };
  let count = 1 + 5;
  const properties: Record<string, object> = {};
  for (let section = 0; count < nodes; section++) {
    count++;
    const fields: Record<string, object> = {};
    for (let i = 0; i < 100 && count < nodes; i++) {
      const leaf = LEAVES[(section + i) % LEAVES.length] as (typeof LEAVES)[number];
      const fits = count + leaf.nodes <= nodes;
      fields[`field${i}`] = fits ? leaf.schema(i) : { type: 'string' };
      count += fits ? leaf.nodes : 1;
    }
    properties[`section${section}`] = {
      type: 'object',
      description: `Section ${section}.`,
      properties: fields,
      required: Object.keys(fields).slice(0, 2),
    };
  }
  return { type: 'object', $defs: { address }, properties, additionalProperties: false };
}

/** 3. convertSchema() of a schema just under the node budget and one just over it. */
function generationFigures(): string[] {
  const under = largeSchema(SCHEMA_MAX_NODES - 1);
  const over = largeSchema(SCHEMA_MAX_NODES + 1);
  if (measureSchema(under) || measureSchema(over)?.kind !== 'nodes')
    throw new Error('the large schemas do not straddle the node budget');
  const convert = (schema: object) => {
    let next = 0;
    const started = performance.now();
    const conversion = convertSchema(
      schema,
      { server: 'bench', tool: 'large', side: 'input' },
      (hint) => `${hint.join('_').replace(/\W/g, '_')}_${next++}`,
    );
    return { elapsed: performance.now() - started, conversion };
  };
  const times = { under: [] as number[], over: [] as number[] };
  let last = { under: convert(under).conversion, over: convert(over).conversion };
  for (let round = 0; round < ROUNDS; round++) {
    const a = convert(under);
    const b = convert(over);
    times.under.push(a.elapsed);
    times.over.push(b.elapsed);
    last = { under: a.conversion, over: b.conversion };
  }
  const describe = (conversion: typeof last.under) => {
    if (!conversion.ok) return `failed: ${conversion.error.reason}`;
    const warnings = conversion.warnings.map((warning) => `warning at ${warning.pointer}: ${warning.reason}`);
    return conversion.type === 'unknown'
      ? ['`unknown`', ...warnings].join('; ')
      : `${(conversion.type.length / 1024).toFixed(0)} KiB of TypeScript, ${conversion.helpers.length} helper type(s), ${conversion.warnings.length} warning(s)`;
  };
  return [
    '\n| convertSchema() | subschema nodes | median | ratio | result |\n|---|---|---|---|---|',
    `| just under the budget | ${SCHEMA_MAX_NODES - 1} | ${ms(median(times.under))} | | ${describe(last.under)} |`,
    `| just over the budget | ${SCHEMA_MAX_NODES + 1} | ${ms(median(times.over))} | ${ratio(median(times.over) / median(times.under))} of under | ${describe(last.over)} |`,
  ];
}

const started = new Date().toISOString();
console.log(`mastra-mcp catalog bench ${started}: node ${process.version}, ${ROUNDS} rounds`);
for (const line of await catalogFigures()) console.log(line);
for (const line of generationFigures()) console.log(line);
