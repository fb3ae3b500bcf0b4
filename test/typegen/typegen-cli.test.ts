/**
 * `mastra-mcp generate` as a user runs it: a subprocess (`node cli.mjs`, the package's bin built
 * from src by its entry in tsdown.config.ts before the cases, so no earlier build is needed) in a
 * temporary project whose client modules import the package as `mastra-mcp` (mapped to this
 * checkout's src/index.ts by the project's tsconfig `paths`), against live servers: MCPServer over
 * HTTP on 127.0.0.1, and stdio child processes. Generated files are then type-checked with this
 * project's TypeScript together with code that uses them. The cases run concurrently, each in
 * folders of its own (the servers take several clients): one at a time left a core idle.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTool } from '@mastra/core/tools';
import { build, type UserConfig } from 'tsdown';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { z } from 'zod';
import { MCPServer } from '../../src/index.js';
import { type HttpHarness, serveHttp } from '../helpers.js';
import { listenLocal } from '../support/net.js';
import { isAlive } from '../support/process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;
const tscBin = require.resolve('typescript/bin/tsc');
const fixture = (name: string) => join(repo, 'test/fixtures', name);
/**
 * tsc's incremental state, kept between runs of this file (per checkout): checking this checkout's
 * src is most of tsc's time, and unchanged files keep their diagnostics. The state's paths are
 * relative to the project, whose name changes but whose depth under tmpdir does not.
 */
const tscState = join(
  tmpdir(),
  `mastra-mcp-typegen-${createHash('sha256').update(repo).digest('hex').slice(0, 12)}.tsbuildinfo`,
);

/** Subprocesses load @mastra/core and start child servers: generous, but no timing is asserted. */
const SLOW = 180_000;

let project: string;
/** The built bin (buildCli) and its directory. */
let cliBuild: string;
let cliEntry: string;
let weather: { server: MCPServer; http: HttpHarness };
let gate: http.Server;
let gateUrl: string;
let closedPort: number;
const silentSockets = new Set<net.Socket>();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs node with `args` in the temporary project; a non-zero exit is a result, not an error. */
function runNode(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: project, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const runCli = (args: string[], env: Record<string, string> = {}) => runNode([cliEntry, ...args], env);

/** `tsc -p` over the project, starting from the state the last run left and leaving its own. */
async function typeCheck(): Promise<Run> {
  const buildInfo = join(project, 'tsconfig.tsbuildinfo');
  await copyFile(tscState, buildInfo).catch(() => undefined);
  const run = await runNode([tscBin, '-p', project]);
  // Replaced by a rename: another run of this file never reads half a state.
  const next = `${tscState}.${process.pid}`;
  await copyFile(buildInfo, next)
    .then(() => rename(next, tscState))
    .catch(() => undefined);
  return run;
}

const write = async (name: string, text: string) => {
  await mkdir(join(project, name, '..'), { recursive: true });
  await writeFile(join(project, name), text);
};
const read = (name: string) => readFile(join(project, name), 'utf8');
const exists = (name: string) =>
  readFile(join(project, name)).then(
    () => true,
    () => false,
  );

/** Process ids the stdio servers reported (their `pid=` stderr line, through a server `logger`). */
async function reportedPids(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/** Server definitions the client modules use: stdio entries of this repository's fixtures. */
const serverDefinitions = `
import { appendFileSync } from 'node:fs';

const tsx = ${JSON.stringify(tsxLoader)};
const recordPid = (entry: { message: string }) => {
  const match = /^pid=(\\d+)$/.exec(entry.message);
  if (match && process.env.PIDS_FILE) appendFileSync(process.env.PIDS_FILE, \`\${match[1]}\\n\`);
};
export const fullStdio = {
  command: process.execPath,
  args: ['--import', tsx, ${JSON.stringify(fixture('stdio-server.ts'))}],
  protocolVersion: '2026-07-28' as const,
};
export const sdkStdio = {
  command: process.execPath,
  args: ['--import', tsx, ${JSON.stringify(fixture('sdk-stdio-server.ts'))}],
  logger: recordPid,
};
export const raw = (mode: string) => ({
  command: process.execPath,
  args: [${JSON.stringify(fixture('fault-raw-server.mjs'))}, mode],
  protocolVersion: 'legacy' as const,
  logger: recordPid,
});
`;

/**
 * The bin as `npm run build` builds it (about 0.3 s; src through tsx cost every run more), into a
 * directory of its own under the checkout, so that its packages resolve and its version is this
 * package.json's: not under node_modules, which may be a link into another checkout.
 */
async function buildCli(): Promise<string> {
  // Imported by URL: tsconfig.json does not cover the config (nor its '.ts' imports).
  const { default: configs } = (await import(pathToFileURL(join(repo, 'tsdown.config.ts')).href)) as {
    default: UserConfig[];
  };
  const config = configs.find(({ entry }) => typeof entry === 'object' && 'cli' in entry);
  if (!config) throw new Error("tsdown.config.ts has no 'cli' entry");
  await mkdir(join(repo, '.cache'), { recursive: true });
  const outDir = await mkdtemp(join(repo, '.cache/typegen-cli-'));
  await build({ ...config, config: false, cwd: repo, outDir, logLevel: 'silent' });
  return outDir;
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'mastra-mcp-generate-'));
  cliBuild = await buildCli();
  cliEntry = join(cliBuild, 'cli.mjs');
  await write('package.json', JSON.stringify({ type: 'module', private: true }));
  await write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noEmit: true,
        incremental: true,
        tsBuildInfoFile: 'tsconfig.tsbuildinfo',
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: ['node'],
        typeRoots: [join(repo, 'node_modules/@types')],
        // What an installed package gives a project; tsx honours `paths` when it loads modules.
        paths: { 'mastra-mcp': [join(repo, 'src/index.ts')] },
      },
      files: ['usage.ts'],
    }),
  );
  await write('servers.ts', serverDefinitions);

  const server = new MCPServer({
    id: 'typegen-weather',
    name: 'Typegen weather',
    version: '1.0.0',
    tools: {
      get_weather: createTool({
        id: 'get_weather',
        description: 'Current weather for a city.',
        inputSchema: z.object({ location: z.string(), units: z.enum(['c', 'f']).optional() }),
        outputSchema: z.object({ temperature: z.number(), conditions: z.string() }),
        execute: async () => ({ temperature: 21, conditions: 'sunny' }),
      }),
    },
  });
  weather = { server, http: await serveHttp(server) };

  // An endpoint that rejects every request's credentials.
  gate = http.createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
  });
  await listenLocal(gate);
  gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/mcp`;

  // A port nothing listens on any more.
  const probe = http.createServer();
  await listenLocal(probe);
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}, SLOW);

afterAll(async () => {
  await weather?.http.close();
  await weather?.server.close();
  await new Promise<void>((resolve) => (gate ? gate.close(() => resolve()) : resolve()));
  if (project) await rm(project, { recursive: true, force: true });
  if (cliBuild) await rm(cliBuild, { recursive: true, force: true });
});

describe.concurrent('mastra-mcp generate', () => {
  it(
    'generates one module per client from several files (duplicates and symlinks once), and the output type-checks',
    async ({ expect }) => {
      await write(
        'src/a.ts',
        `import { MCPClient } from 'mastra-mcp';
import type { MCPServers } from '../generated/a.generated.ts'; // missing on the first run
import { fullStdio } from '../servers.ts';

export const weather = new MCPClient<MCPServers>({
  id: 'typegen-a',
  servers: { weather: { url: new URL(process.env.WEATHER_URL ?? '') }, local: fullStdio },
  typegen: { outFile: 'generated/a.generated.ts' },
});
export default weather;
export const notAClient = { typegen: { outFile: 'nope.ts' } };
`,
      );
      await write(
        'src/b.ts',
        `import { MCPClient } from 'mastra-mcp';
import { raw, sdkStdio } from '../servers.ts';

export { weather as sameClientAgain } from './a.ts';
export const sdk = new MCPClient({
  id: 'typegen-b',
  servers: { sdk: sdkStdio, raw: raw('linger') },
  typegen: { outFile: './generated/b.generated.ts' },
});
// Not typegen-enabled: ignored.
export const untyped = new MCPClient({ id: 'typegen-b-untyped', servers: { sdk: sdkStdio } });
`,
      );
      await symlink(join(project, 'src/a.ts'), join(project, 'src/alias.ts'));
      const pids = join(project, 'pids-1.txt');

      const run = await runCli(['generate', 'src/a.ts', 'src/b.ts', './src/a.ts', 'src/alias.ts'], {
        WEATHER_URL: weather.http.mcpUrl.href,
        PIDS_FILE: pids,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual([
        "wrote generated/a.generated.ts: 2 servers, 16 tools (src/a.ts (export 'default'))",
        "wrote ./generated/b.generated.ts: 2 servers, 6 tools (src/b.ts (export 'sdk'))",
      ]);
      // Both stdio servers that report their pid are gone the moment the command has exited.
      const started = await reportedPids(pids);
      expect(started).toHaveLength(2);
      for (const pid of started) expect(isAlive(pid)).toBe(false);

      const a = await read('generated/a.generated.ts');
      expect(a.startsWith('// Generated by `mastra-mcp generate`')).toBe(true);
      expect(a).toContain('export interface MCPServers {');
      expect(a).toContain('/** Current weather for a city. */');
      expect(await read('generated/b.generated.ts')).toContain('sdk: {');

      await write(
        'usage.ts',
        `import { MCPClient } from 'mastra-mcp';
import type { MCPServers as A } from './generated/a.generated.ts';
import type { MCPServers as B } from './generated/b.generated.ts';
import { weather } from './src/a.ts';

const b = new MCPClient<B>({
  id: 'usage-b',
  servers: { sdk: { command: 'node' }, raw: { command: 'node' } },
  registerProcessHooks: false,
});

export async function use(): Promise<void> {
  const tools = await weather.listTools();
  await tools.weather_get_weather?.execute?.({ location: 'Paris', units: 'c' });
  await tools.local_weatherTool?.execute?.({ location: 'Oslo' });
  // @ts-expect-error: units is 'c' | 'f'
  await tools.weather_get_weather?.execute?.({ location: 'Paris', units: 'kelvin' });
  // @ts-expect-error: location is a string
  await tools.local_weatherTool?.execute?.({ location: 42 });
  // @ts-expect-error: not a tool of the generated map
  void tools.weather_unknown;

  const sdkTools = await b.listToolsets();
  const result = await sdkTools.sdk?.weather?.execute?.({ city: 'Lima' });
  if (result && 'tempC' in result && typeof result.tempC === 'number') console.log(result.tempC);
  // @ts-expect-error: city is required
  await sdkTools.sdk?.weather?.execute?.({});
}

// The generated maps have the shape MCPClient's type argument describes.
type Shape = Record<string, { tools: Record<string, { input: unknown; output: unknown }> }>;
export const fits: [Pick<A, keyof A>, Pick<B, keyof B>] extends [Shape, Shape] ? true : false = true;
`,
      );
      const tsc = await typeCheck();
      expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
      expect(tsc.code).toBe(0);
    },
    SLOW,
  );

  it(
    "writes the contracts guide's example file (examples/docs/contracts/mcp-types.generated.ts) from the same server",
    async ({ expect }) => {
      const example = join(repo, 'examples/docs/contracts/typegen-client.ts');
      const run = await runCli(['generate', example], { WEATHER_MCP_URL: weather.http.mcpUrl.href });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // The client's outFile is relative to the working directory: the temporary project.
      expect(await read('examples/docs/contracts/mcp-types.generated.ts')).toBe(
        await readFile(join(repo, 'examples/docs/contracts/mcp-types.generated.ts'), 'utf8'),
      );
    },
    SLOW,
  );

  it(
    'fails before discovery on a file without an eligible client, an output collision, or an output that is an input, writing nothing',
    async ({ expect }) => {
      await write('fail/previous.generated.ts', 'previous\n');
      const client = (id: string, outFile: string) =>
        `import { MCPClient } from 'mastra-mcp';
export const client = new MCPClient({
  id: ${JSON.stringify(id)},
  servers: { down: { url: new URL('http://127.0.0.1:${closedPort}/mcp') } },
  typegen: { outFile: ${JSON.stringify(outFile)} },
});
`;
      await write('fail/valid.ts', client('fail-valid', 'fail/previous.generated.ts'));
      await write(
        'fail/none.ts',
        `import { MCPClient } from 'mastra-mcp';
export const untyped = new MCPClient({ id: 'fail-none', servers: { down: { url: new URL('http://127.0.0.1:${closedPort}/mcp') } } });
export const lookalike = { typegen: { outFile: 'x.ts' }, listToolDefinitionsWithErrors() {} };
export default 42;
`,
      );
      const none = await runCli(['generate', 'fail/valid.ts', 'fail/none.ts']);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(
        "error: fail/none.ts: no exported MCPClient with 'typegen.outFile' (direct named or default exports)",
      );
      expect(none.stderr).toContain('no file was written');
      expect(none.stdout).toBe('');

      await write('fail/other.ts', client('fail-other', './fail/../fail/previous.generated.ts'));
      const collision = await runCli(['generate', 'fail/valid.ts', 'fail/other.ts']);
      expect(collision.code).toBe(1);
      expect(collision.stderr).toContain(
        "error: ./fail/../fail/previous.generated.ts: the outFile of both fail/valid.ts (export 'client') and fail/other.ts (export 'client')",
      );

      await write('fail/self.ts', client('fail-self', 'fail/self.ts'));
      const selfBefore = await read('fail/self.ts');
      const overwrite = await runCli(['generate', 'fail/valid.ts', 'fail/self.ts']);
      expect(overwrite.code).toBe(1);
      expect(overwrite.stderr).toContain(
        "error: fail/self.ts: the outFile of fail/self.ts (export 'client') would overwrite an input file",
      );

      // None of them contacted a server (the one configured is down) or wrote anything.
      for (const run of [none, collision, overwrite])
        expect(run.stderr).not.toMatch(/discovery|server 'down'/);
      expect(await read('fail/previous.generated.ts')).toBe('previous\n');
      expect(await read('fail/self.ts')).toBe(selfBefore);
    },
    SLOW,
  );

  it(
    'fails on discovery errors naming file and server, never printing credentials, and still disconnects',
    async ({ expect }) => {
      await write('down/out.generated.ts', 'previous\n');
      await write(
        'down/client.ts',
        `import { MCPClient } from 'mastra-mcp';
import { raw } from '../servers.ts';

export const client = new MCPClient({
  id: 'down',
  servers: {
    down: {
      url: new URL('http://user:SECRET-PASSWORD@127.0.0.1:${closedPort}/mcp?token=SECRET-QUERY'),
      requestInit: { headers: { Authorization: 'Bearer SECRET-HEADER' } },
    },
    gated: {
      url: new URL(process.env.GATE_URL + '?key=SECRET-GATE-QUERY'),
      requestInit: { headers: { Authorization: 'Bearer SECRET-GATE-TOKEN' } },
    },
    lingering: raw('linger'),
  },
  typegen: { outFile: 'down/out.generated.ts' },
});
`,
      );
      const pids = join(project, 'pids-down.txt');
      const run = await runCli(['generate', 'down/client.ts'], { GATE_URL: gateUrl, PIDS_FILE: pids });
      expect(run.code).toBe(1);
      // The URLs are named without their credentials and query; the causes in words.
      expect(run.stderr).toContain(
        `error: down/client.ts (export 'client'): Failed to connect to MCP server 'down' at http://127.0.0.1:${closedPort}/mcp: the URL includes a user name or password, which fetch refuses`,
      );
      expect(run.stderr).toContain(
        `error: down/client.ts (export 'client'): Failed to connect to MCP server 'gated' at ${gateUrl}: HTTP 401 Unauthorized: missing or rejected credentials`,
      );
      expect(run.stderr).not.toContain("server 'lingering'");
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/SECRET|user:/);
      expect(await read('down/out.generated.ts')).toBe('previous\n');
      // The stdio server that outlives its stdin was ended by disconnect(), not left behind.
      const started = await reportedPids(pids);
      expect(started).toHaveLength(1);
      for (const pid of started) expect(isAlive(pid)).toBe(false);
    },
    SLOW,
  );

  it(
    'finishes against a hostile server: schemas nested deeper than 128 levels fail generation, naming the tools',
    async ({ expect }) => {
      await write(
        'hostile/client.ts',
        `import { MCPClient } from 'mastra-mcp';
import { raw } from '../servers.ts';

export default new MCPClient({
  id: 'hostile',
  servers: { hostile: raw('hostile-schemas') },
  typegen: { outFile: 'hostile/out.generated.ts' },
});
`,
      );
      const run = await runCli(['generate', 'hostile/client.ts']);
      expect(run.code).toBe(1);
      const where = "hostile/client.ts (export 'default'): server 'hostile'";
      for (const [tool, side] of [
        ['abyss', 'input'],
        ['deep', 'input'],
        ['deepOutput', 'output'],
      ]) {
        expect(run.stderr).toContain(
          `error: ${where}, tool '${tool}', ${side} schema: nests subschemas more than 128 levels deep; it cannot be represented`,
        );
      }
      expect(run.stderr).toContain('no file was written');
      await expect(read('hostile/out.generated.ts')).rejects.toThrow();
    },
    SLOW,
  );

  it(
    'widens tools over the node and raw JSON budgets to unknown, with warnings naming them',
    async ({ expect }) => {
      await write(
        'wide/only.ts',
        `import { MCPClient } from 'mastra-mcp';
import { raw } from '../servers.ts';

export const only = new MCPClient({
  id: 'only-wide',
  servers: { wide: raw('wide-schemas') },
  typegen: { outFile: 'wide/only.generated.ts' },
});
`,
      );
      const run = await runCli(['generate', 'wide/only.ts']);
      expect(run.code).toBe(0);
      const where = "wide/only.ts (export 'only'): server 'wide'";
      expect(run.stderr).toContain(
        `warning: ${where}, tool 'huge', input schema: has more than 10000 subschemas; the tool's input and output widened to unknown`,
      );
      expect(run.stderr).toContain(
        `warning: ${where}, tool 'deepDefault', input schema: nests JSON more than 1000 levels deep; the tool's input and output widened to unknown`,
      );
      const generated = await read('wide/only.generated.ts');
      expect(generated).toMatch(/huge: \{\s*input: unknown;\s*output: unknown;\s*\}/);
      expect(generated).toMatch(/deepDefault: \{\s*input: unknown;\s*output: unknown;\s*\}/);
      expect(generated).toMatch(/ok: \{\s*input: \{/);
    },
    SLOW,
  );

  it(
    'fails on reference cycles and unresolved references naming file, server and tool, and keeps schema content out of diagnostics',
    async ({ expect }) => {
      await write(
        'refs/client.ts',
        `import { MCPClient } from 'mastra-mcp';
import { raw } from '../servers.ts';

export const refs = new MCPClient({
  id: 'refs',
  servers: { refs: raw('bad-refs') },
  typegen: { outFile: 'refs/out.generated.ts' },
});
`,
      );
      const run = await runCli(['generate', 'refs/client.ts']);
      expect(run.code).toBe(1);
      const where = "refs/client.ts (export 'refs'): server 'refs'";
      expect(run.stderr).toContain(
        `error: ${where}, tool 'cyclic', input schema at #/$defs/node: reference cycle through this definition`,
      );
      expect(run.stderr).toContain(
        `error: ${where}, tool 'dangling', input schema at #/properties/a/$ref: local $ref does not resolve`,
      );
      expect(run.stderr).toContain(
        `warning: ${where}, tool 'conditional', input schema at #/properties/rule: conditional schemas ('if'/'then'/'else') are not supported; widened to unknown`,
      );
      expect(run.stderr).toContain(
        `warning: ${where}, tool 'external', input schema at #/properties/remote/$ref: external $ref is not fetched; widened to unknown`,
      );
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/SECRET|example\.invalid/);
      expect(await exists('refs/out.generated.ts')).toBe(false);
    },
    SLOW,
  );

  it(
    'loads a JavaScript client module without tsx, and names what to install for a TypeScript one',
    async ({ expect }) => {
      const client = (id: string) => `import { MCPClient } from 'mastra-mcp';
export const client = new MCPClient({
  id: '${id}',
  servers: { weather: { url: new URL(process.env.WEATHER_URL ?? '') } },
  typegen: { outFile: 'plain/${id}.generated.ts' },
});
`;
      await write('plain/js.mjs', client('js'));
      await write('plain/ts.ts', client('ts'));
      // tsx loads the package's src the module imports; the CLI's own import of tsx fails.
      const withoutTsx = (files: string[]) =>
        runNode(
          ['--import', tsxLoader, '--import', fixture('hide-packages.mjs'), cliEntry, 'generate', ...files],
          { WEATHER_URL: weather.http.mcpUrl.href, HIDDEN_PACKAGES: 'tsx' },
        );

      const js = await withoutTsx(['plain/js.mjs']);
      expect(js.stderr).toBe('');
      expect(js.code).toBe(0);
      expect(js.stdout).toContain(
        "wrote plain/js.generated.ts: 1 server, 1 tool (plain/js.mjs (export 'client'))",
      );
      expect(await read('plain/js.generated.ts')).toContain('get_weather: {');

      const ts = await withoutTsx(['plain/js.mjs', 'plain/ts.ts']);
      expect(ts.code).toBe(1);
      expect(ts.stderr).toContain(
        "error: plain/ts.ts: a TypeScript file needs the optional peer dependency tsx, which is not installed: run 'npm install -D tsx' (or give a .js or .mjs file)",
      );
      expect(ts.stderr).not.toContain('plain/js.mjs');
      expect(await exists('plain/ts.generated.ts')).toBe(false);
    },
    SLOW,
  );

  it(
    'names the URL and cause of an unreachable server, and fails a silent one at --timeout',
    async ({ expect }) => {
      const silent = net.createServer((socket) => silentSockets.add(socket));
      await listenLocal(silent);
      const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
      try {
        await write(
          'unreachable/client.ts',
          `import { MCPClient } from 'mastra-mcp';
export const client = new MCPClient({
  id: 'unreachable',
  servers: {
    refused: { url: new URL('http://127.0.0.1:${closedPort}/mcp') },
    silent: { url: new URL(${JSON.stringify(silentUrl)}) },
  },
  typegen: { outFile: 'unreachable/out.generated.ts' },
});
`,
        );
        // Ample: the refused server must fail before it, with the other cases loading the machine.
        const run = await runCli(['generate', '--timeout', '5000', 'unreachable/client.ts']);
        expect(run.code).toBe(1);
        const where = "error: unreachable/client.ts (export 'client')";
        expect(run.stderr).toContain(
          `${where}: Failed to connect to MCP server 'refused' at http://127.0.0.1:${closedPort}/mcp: connection refused: nothing listens at that address (ECONNREFUSED)`,
        );
        expect(run.stderr).toContain(
          `${where}: MCP server 'silent' at ${silentUrl} did not answer within 5000 ms (--timeout); its work was abandoned`,
        );
        expect(await exists('unreachable/out.generated.ts')).toBe(false);
      } finally {
        for (const socket of silentSockets) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
    SLOW,
  );

  it(
    'prints why a module failed to load with its file and line: a TypeScript syntax error, an error it threw',
    async ({ expect }) => {
      await write(
        'broken/syntax.ts',
        "import { MCPClient } from 'mastra-mcp';\nexport const client = new MCPClient({\n  servers: {},\n  typegen: { outFile: 'x.ts' };\n});\n",
      );
      await write('broken/throws.ts', "export const x = 1;\nthrow new Error('config needs WEATHER_URL');\n");
      const run = await runCli(['generate', 'broken/syntax.ts', 'broken/throws.ts']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `error: broken/syntax.ts: the module failed to load: ${join(project, 'broken/syntax.ts')}:4:30: ERROR: Expected \\"}\\" but found \\";\\"`,
      );
      expect(run.stderr).toContain(
        `error: broken/throws.ts: the module failed to load: Error: config needs WEATHER_URL (at ${join(project, 'broken/throws.ts')}:2:`,
      );
      expect(run.stderr).toContain('no file was written');
    },
    SLOW,
  );

  it(
    'names file, line and column of a syntax error in a JavaScript module (.mjs, .js, .cjs), with tsx or without',
    async ({ expect }) => {
      // Its own folder: tsx resolves `x.js` to a sibling `x.ts`, which the test above wrote.
      const esm = "export const client = {\n  servers: {},\n  typegen: { outFile: 'x.ts' };\n};\n";
      await write('broken-js/syntax.mjs', esm);
      await write('broken-js/syntax.js', esm);
      await write(
        'broken-js/syntax.cjs',
        "const servers = {};\nmodule.exports = { client: { servers, typegen: { outFile: 'x.ts' }; } };\n",
      );
      await write('broken-js/fine.ts', 'export const x = 1;\n');
      const files = ['broken-js/syntax.mjs', 'broken-js/syntax.js', 'broken-js/syntax.cjs'];
      const expected = [
        `error: broken-js/syntax.mjs: the module failed to load: SyntaxError: Unexpected token ';' (at ${join(project, 'broken-js/syntax.mjs')}:3:31)`,
        `error: broken-js/syntax.js: the module failed to load: SyntaxError: Unexpected token ';' (at ${join(project, 'broken-js/syntax.js')}:3:31)`,
        `error: broken-js/syntax.cjs: the module failed to load: SyntaxError: Unexpected token ';' (at ${join(project, 'broken-js/syntax.cjs')}:2:67)`,
      ];
      // Node's own import() (tsx hidden, and in no hook: the built bin needs none), then tsx's
      // loader, which a TypeScript input brings in.
      const native = await runNode(
        ['--import', fixture('hide-packages.mjs'), cliEntry, 'generate', ...files],
        {
          HIDDEN_PACKAGES: 'tsx',
        },
      );
      const throughTsx = await runCli(['generate', ...files, 'broken-js/fine.ts']);
      for (const run of [native, throughTsx]) {
        expect(run.code).toBe(1);
        for (const line of expected) expect(run.stderr).toContain(line);
      }
    },
    SLOW,
  );

  it(
    'prints its version, and refuses a --timeout that is not a positive number of milliseconds',
    async ({ expect }) => {
      const { version } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
        version: string;
      };
      // Independent processes: run side by side.
      const [run, ...bad] = await Promise.all([
        runCli(['--version']),
        runCli(['generate', '--timeout', 'soon', 'x.ts']),
        runCli(['generate', 'x.ts', '--timeout']),
      ]);
      expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      for (const refused of bad) {
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain('--timeout needs a positive number of milliseconds');
      }
    },
    SLOW,
  );

  it(
    'answers usage errors with the usage text and exit code 2, and names files it cannot read',
    async ({ expect }) => {
      const usage = [[], ['frobnicate'], ['generate'], ['generate', '--watch', 'x.ts']];
      const [help, missing, ...misused] = await Promise.all([
        runCli(['generate', '--help']),
        runCli(['generate', 'no/such/file.ts']),
        ...usage.map((args) => runCli(args)),
      ]);
      for (const run of misused) {
        expect(run.code).toBe(2);
        expect(run.stderr).toContain('Usage: mastra-mcp generate [--timeout <ms>] <file...>');
      }
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage: mastra-mcp generate [--timeout <ms>] <file...>');

      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('error: no/such/file.ts: cannot read the file');
    },
    SLOW,
  );
});
