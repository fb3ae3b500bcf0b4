/**
 * MCPClient against a hostile server's tool list (issue 13, items 9 and 13): patterns that are
 * exponential for a backtracking engine, tools the SDK's result schema would reject, and names
 * every JavaScript object already has. The server is a child process over stdio
 * (fixtures/hostile-schema-server.ts) that sends what it likes, in both protocol eras.
 */
import path from 'node:path';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { describe, expect, it } from 'vitest';
import { type LogMessage, MCPClient, type MCPTool, type StdioServerDefinition } from '../../src/index.js';
import { clientsDisconnectedAfterEach, pidRecorder, run } from '../fixtures/client-harness.js';
import { textOf } from '../support/results.js';

const fixture = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '../fixtures/hostile-schema-server.ts',
);
const { clients, children } = clientsDisconnectedAfterEach();
let nextId = 0;

function hostile(extra: Partial<StdioServerDefinition> = {}, mode: 'all' | 'patterns' = 'patterns') {
  const recorded = pidRecorder();
  const logger = (entry: LogMessage) => {
    recorded.logger(entry);
    for (const pid of recorded.pids) children.add(pid);
  };
  const mcp = new MCPClient({
    id: `hostile-schemas-${process.pid}-${++nextId}`,
    registerProcessHooks: false,
    timeout: 20_000,
    servers: {
      hostile: { command: process.execPath, args: ['--import', 'tsx', fixture, mode], logger, ...extra },
    },
  });
  clients.push(mcp);
  return { mcp, records: recorded.records };
}

/**
 * A stall the fix cannot explain: checks take milliseconds now, while a backtracking engine needs
 * seconds at the shorter lengths below and hours at the longer ones. Generous, because a busy
 * machine can delay any timer by some hundreds of milliseconds.
 */
const STALL_BOUND_MS = 3000;

/** The longest the event loop went without running a 10 ms timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

/** Each `tool '…' skipped: …` error record as [tool, reason]. */
function skipped(records: LogMessage[]): Array<[string, string]> {
  return records
    .filter((record) => record.level === 'error' && record.serverName === 'hostile')
    .map((record) => /tool (.+?) skipped: (.*)/.exec(record.message))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => [match[1] ?? '', match[2] ?? '']);
}

const failure = (outcome: unknown) => (outcome as { message?: string }).message ?? JSON.stringify(outcome);

const GOOD_TOOLS = ['ok', 'match', 'echo', 'keys', 'lookahead', 'huge'];

describe.each([undefined, 'legacy'] as const)(
  'a hostile tool list (protocolVersion %s)',
  (protocolVersion) => {
    it('drops only the malformed and prototype-named tools, each logged with server and tool', async () => {
      const { mcp, records } = hostile(protocolVersion ? { protocolVersion } : {}, 'all');
      const { toolsets, errors } = await mcp.listToolsetsWithErrors();
      expect(errors).toEqual({});
      const toolset = toolsets.hostile ?? {};
      expect(Object.keys(toolset).sort()).toEqual([...GOOD_TOOLS].sort());
      // The per-server object is an ordinary object: no tool replaced its prototype.
      expect(Object.getPrototypeOf(toolset)).toBe(Object.prototype);
      expect(Object.hasOwn(toolset, 'constructor')).toBe(false);
      expect(textOf(await run(toolset.ok, { value: 'fine' }))).toBe('fine');

      const reasons = Object.fromEntries(skipped(records));
      expect(reasons).toEqual({
        "'wat'": expect.stringMatching(/inputSchema\.type/),
        'tools[7]': expect.stringMatching(/name/),
        "'badAnnotations'": expect.stringMatching(/annotations\.readOnlyHint/),
        "'stringOutput'": expect.stringMatching(/outputSchema/),
        "'numericDialect'": expect.stringMatching(/inputSchema\.\$schema/),
        'tools[11]': expect.stringMatching(/not an object/),
        "'__proto__'": expect.stringMatching(/Object\.prototype/),
        "'constructor'": expect.stringMatching(/Object\.prototype/),
        "'toString'": expect.stringMatching(/Object\.prototype/),
      });
      // The flat map and the catalog agree.
      const { tools } = await mcp.listToolsWithErrors();
      expect(Object.keys(tools).sort()).toEqual(GOOD_TOOLS.map((name) => `hostile_${name}`).sort());
      expect(Object.keys((await mcp.listToolDefinitions()).hostile ?? {}).sort()).toEqual(
        [...GOOD_TOOLS].sort(),
      );
    });
  },
);

describe('patterns from a hostile server', () => {
  it('checks an exponential pattern in arguments and in structured output without blocking', async () => {
    const { mcp } = hostile();
    const tools = await mcp.listTools();
    const match = tools.hostile_match as MCPTool;
    const echo = tools.hostile_echo as MCPTool;

    // First lengths a backtracking engine needs seconds for (input checks cost it more than output
    // checks), then lengths it would need hours for.
    for (const [inputLength, outputLength] of [
      [25, 26],
      [60, 60],
    ] as const) {
      const input = await longestStall(() =>
        run(match, { value: `${'a'.repeat(inputLength)}!` }).catch((error: Error) => error),
      );
      expect(input.stallMs, `input validation, ${inputLength} characters`).toBeLessThan(STALL_BOUND_MS);
      expect(failure(input.result)).toMatch(/must match pattern/);

      const output = await longestStall(() =>
        run(echo, { value: `${'a'.repeat(outputLength)}!` }).catch((error: Error) => error),
      );
      expect(output.stallMs, `output validation, ${outputLength} characters`).toBeLessThan(STALL_BOUND_MS);
      expect(failure(output.result)).toMatch(/does not match the tool's output schema/);

      const good = 'a'.repeat(inputLength);
      expect(textOf(await run(match, { value: good }))).toBe(good);
      expect(textOf(await run(echo, { value: good }))).toBe(good);
    }
  });

  it('checks patternProperties and propertyNames with the same engine', async () => {
    const { mcp } = hostile();
    const keys = (await mcp.listTools()).hostile_keys as MCPTool;
    for (const length of [25, 60]) {
      const name = 'a'.repeat(length);
      const { result, stallMs } = await longestStall(async () => ({
        numberUnderMatchingName: await run(keys, { [name]: 1 }),
        stringUnderMatchingName: await run(keys, { [name]: 'x' }).catch((error: Error) => error),
        nonMatchingName: await run(keys, { [`${name}!`]: 1 }).catch((error: Error) => error),
      }));
      expect(stallMs, `${length} characters`).toBeLessThan(STALL_BOUND_MS);
      expect(result.numberUnderMatchingName).not.toMatchObject({ error: true });
      expect(failure(result.stringUnderMatchingName)).toMatch(/expected number, got string/);
      expect(failure(result.nonMatchingName)).toMatch(/property name must be valid/);
    }
  });

  it('leaves a pattern RE2 cannot match in bounded time unchecked, with a warning naming it', async () => {
    const { mcp, records } = hostile();
    const tools = await mcp.listTools();
    const warnings = records.filter((record) => record.level === 'warning').map((record) => record.message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /tool 'lookahead': its inputSchema pattern '\^\(\?=\.\*\[0-9\]\)\[a-z0-9\]\+\$' at \/properties\/value is not checked by the client: .*lookahead/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/tool 'huge': its inputSchema pattern .* is not checked by the client: .*1000/),
    );
    // Unchecked here, so the server decides; it echoes.
    expect(textOf(await run(tools.hostile_lookahead, { value: 'no digits' }))).toBe('no digits');
    expect(textOf(await run(tools.hostile_huge, { value: '123' }))).toBe('123');
  });

  it("a configured jsonSchemaValidator still validates both arguments and output (the user's choice wins)", async () => {
    const inner = new CfWorkerJsonSchemaValidator();
    const seen: unknown[] = [];
    const { mcp, records } = hostile({
      jsonSchemaValidator: {
        getValidator: (schema) => {
          seen.push(schema);
          return inner.getValidator(schema);
        },
      },
    });
    const tools = await mcp.listTools();
    expect(textOf(await run(tools.hostile_echo, { value: 'aaa' }))).toBe('aaa');
    // The input schema (at listing) and the output schema (at the call) went through it.
    expect(seen).toContainEqual(expect.objectContaining({ properties: { value: { type: 'string' } } }));
    expect(seen).toContainEqual(
      expect.objectContaining({ properties: { value: { type: 'string', pattern: '^(a+)+$' } } }),
    );
    // RE2's limits are not the user's validator's: nothing is reported unchecked.
    expect(records.filter((record) => record.level === 'warning')).toEqual([]);
  });
});
