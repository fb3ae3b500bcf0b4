/**
 * A new user's first hour, from the docs alone: the packed package installed into a fresh app
 * outside the repository (the README's install line; offline, so each package that line and the
 * tarball's own dependencies name is linked from this repository's node_modules, as npm would
 * place it), the README's server, agent and stdio snippets run as files (the agent on a mock
 * model), the README's Cursor config used as it is, contracts generated with `mastra-mcp generate`
 * and type-checked under `strict`, and the mistakes a newcomer makes, each answered with an error
 * that names the fix. Only the app's own `mastra-mcp` is a real directory: a dependency the
 * package forgot to declare would not resolve from it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, type Era } from '../helpers.js';
import { type BuiltPackage, builtPackage, root } from '../support/built-package.js';

const exec = promisify(execFile);
/** tsx children that load @mastra/core take seconds each on a busy 2-core machine. */
const SLOW = 120_000;

interface PackageJson {
  version: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The README's code block under `<!-- snippet: path -->`, as a user copies it. */
function readmeSnippet(path: string): string {
  const block = new RegExp(
    `<!-- snippet: ${path.replace(/[.]/g, '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(readme);
  if (!block?.[1]) throw new Error(`README.md has no snippet ${path}`);
  return `${block[1]}\n`;
}

/** The first README code block of `lang` that contains `text`. */
function readmeBlock(lang: string, text: string): string {
  for (const match of readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``, 'g'))) {
    if (match[1]?.includes(text)) return match[1];
  }
  throw new Error(`README.md has no \`\`\`${lang} block containing ${text}`);
}

/** `text` with `from` replaced by `to`, failing when the snippet no longer has `from`. */
function swap(text: string, from: string, to: string): string {
  expect(text, `the snippet changed: it no longer contains ${from}`).toContain(from);
  return text.replace(from, to);
}

/** Package names of an `npm install …` line (versions dropped). */
function installed(line: string): string[] {
  return line
    .replace(/#.*/, '')
    .trim()
    .split(/\s+/)
    .slice(2)
    .filter((arg) => !arg.startsWith('-'))
    .map((arg) => arg.replace(/(?<=.)@.*$/, ''));
}

let app: string;
let built: BuiltPackage | undefined;
let server: ChildProcess | undefined;
let serverUrl: URL;

/** Runs a TypeScript file of the app with the tsx it installed, as `npx tsx file` does. */
async function runTs(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return exec(process.execPath, [join(app, 'node_modules/tsx/dist/cli.mjs'), file, ...args], {
    cwd: app,
    env: { ...process.env, npm_config_offline: 'true', OPENAI_API_KEY: '', ...env },
    timeout: SLOW,
  });
}

/** Links `name` from this repository's node_modules into the app's, as npm would have placed it. */
function link(name: string): void {
  const target = join(app, 'node_modules', name);
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(realpathSync(join(root, 'node_modules', name)), target, 'dir');
}

beforeAll(async () => {
  app = realpathSync(mkdtempSync(join(tmpdir(), 'first-hour-')));
  built = await builtPackage('first-hour');
  const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', app], {
    cwd: built.dir,
  });
  const tarball = join(app, (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename ?? '');
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'first-hour', private: true, type: 'module' }),
  );

  // `npm install mastra-mcp @mastra/core@^1 zod`, then `npm install -D tsx`.
  const installLine = readmeBlock('sh', 'npm install mastra-mcp').split('\n')[0] ?? '';
  const tsxLine = readmeBlock('sh', 'npm install -D tsx').split('\n')[0] ?? '';
  const names = [...installed(installLine), ...installed(tsxLine)];
  expect(names).toEqual(['mastra-mcp', '@mastra/core', 'zod', 'tsx']);
  mkdirSync(join(app, 'node_modules/.bin'), { recursive: true });
  await exec('tar', ['-xzf', tarball, '-C', join(app, 'node_modules')]);
  renameSync(join(app, 'node_modules/package'), join(app, 'node_modules/mastra-mcp'));
  const packed = JSON.parse(
    readFileSync(join(app, 'node_modules/mastra-mcp/package.json'), 'utf8'),
  ) as PackageJson;
  const requiredPeers = Object.keys(packed.peerDependencies ?? {}).filter(
    (name) => !packed.peerDependenciesMeta?.[name]?.optional,
  );
  // What the app itself imports beyond the README's line: the mock model (ai/test) and Node's types.
  const forTheTest = ['ai', '@ai-sdk/provider', '@types/node'];
  for (const name of [
    ...names.slice(1),
    ...Object.keys(packed.dependencies ?? {}),
    ...requiredPeers,
    ...forTheTest,
  ]) {
    link(name);
  }
  const core = JSON.parse(
    readFileSync(join(app, 'node_modules/@mastra/core/package.json'), 'utf8'),
  ) as PackageJson;
  expect(core.version).toMatch(/^1\./);
  for (const [bin, path] of Object.entries({ ...packed.bin, tsx: '../tsx/dist/cli.mjs' })) {
    const file = bin === 'tsx' ? path : join('../mastra-mcp', path);
    symlinkSync(file, join(app, 'node_modules/.bin', bin));
  }

  // The README's snippets as files, under the names their imports use.
  for (const name of ['weather', 'serve', 'agent', 'stdio']) {
    writeFileSync(join(app, `${name}.ts`), readmeSnippet(`examples/readme/${name}.ts`));
  }
  // Port 3000 may be taken here: the one change to a snippet, apart from the agent's model.
  writeFileSync(
    join(app, 'serve.ts'),
    swap(readmeSnippet('examples/readme/serve.ts'), 'port: 3000', 'port: 0'),
  );
  copyFileSync(join(root, 'examples/mock-model.ts'), join(app, 'mock-model.ts'));
  for (const file of readdirSync(join(root, 'test/fixtures/first-hour/app'))) {
    copyFileSync(join(root, 'test/fixtures/first-hour/app', file), join(app, file));
  }
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );

  server = spawn(process.execPath, [join(app, 'node_modules/tsx/dist/cli.mjs'), 'serve.ts'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stderr: string[] = [];
  server.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  serverUrl = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: server?.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const url = /^MCP server listening at (\S+)$/.exec(line)?.[1];
      if (url) resolve(new URL(url));
    });
    server?.once('exit', (code) => reject(new Error(`serve.ts exited (${code}): ${stderr.join('')}`)));
  });
}, SLOW);

afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  built?.dispose();
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('the first hour, from the README', () => {
  it('installs from the tarball: the package resolves inside the app, its dependencies beside it', () => {
    const resolved = realpathSync(join(app, 'node_modules/mastra-mcp/package.json'));
    expect(relative(app, resolved)).toBe('node_modules/mastra-mcp/package.json');
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson).version;
    expect((JSON.parse(readFileSync(resolved, 'utf8')) as PackageJson).version).toBe(version);
  });

  it.each<Era>(['modern', 'legacy'])(
    'serves the README server with listen(): the SDK client (%s) lists and calls its tool',
    async (era) => {
      expect(serverUrl.pathname).toBe('/mcp');
      const client = await connectHttp(serverUrl, era);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['getWeather']);
        const result = await client.callTool({ name: 'getWeather', arguments: { city: 'Oslo' } });
        expect(result.structuredContent).toEqual({ forecast: 'Sunny in Oslo' });
      } finally {
        await client.close();
      }
      expect(await (await fetch(new URL('/health', serverUrl))).json()).toEqual({ status: 'ok' });
    },
  );

  it(
    "gives the README agent the server's tools: its model calls one and answers from the result",
    async () => {
      let agent = swap(
        readmeSnippet('examples/readme/agent.ts'),
        "model: 'openai/gpt-4o-mini', // any Mastra model; this one reads OPENAI_API_KEY",
        "model: toolCallingModel('weather_getWeather', { city: 'Oslo' }),",
      );
      agent = swap(agent, 'http://127.0.0.1:3000/mcp', serverUrl.href);
      writeFileSync(join(app, 'agent.ts'), `import { toolCallingModel } from './mock-model.js';\n${agent}`);
      const { stdout } = await runTs('agent.ts');
      expect(stdout.trim()).toBe(JSON.stringify({ forecast: 'Sunny in Oslo' }));
    },
    SLOW,
  );

  it(
    "runs the stdio snippet from the README's Cursor config, as it is, through MCPClient.fromConfig()",
    async () => {
      const config = swap(
        readmeBlock('json', '"mcpServers"'),
        '/absolute/path/to/stdio.ts',
        join(app, 'stdio.ts'),
      );
      mkdirSync(join(app, '.cursor'));
      writeFileSync(join(app, '.cursor/mcp.json'), config);
      const { stdout } = await runTs('from-config.ts');
      expect(JSON.parse(stdout)).toEqual({ forecast: 'Sunny in Bergen' });
    },
    SLOW,
  );

  it(
    'generates contracts with `mastra-mcp generate` that type-check under strict and catch misspellings',
    async () => {
      const client = swap(
        readFileSync(join(root, 'examples/docs/contracts/typegen-client.ts'), 'utf8'),
        "'examples/docs/contracts/mcp-types.generated.ts'",
        "'mcp-types.generated.ts'",
      );
      writeFileSync(join(app, 'typegen-client.ts'), client);
      const env = { WEATHER_MCP_URL: serverUrl.href };
      const generate = await exec(
        join(app, 'node_modules/.bin/mastra-mcp'),
        ['generate', 'typegen-client.ts'],
        {
          cwd: app,
          env,
          timeout: SLOW,
        },
      );
      expect(generate.stdout).toContain('mcp-types.generated.ts');
      const generated = readFileSync(join(app, 'mcp-types.generated.ts'), 'utf8');
      expect(generated).toMatch(/getWeather: \{\s+input: \{\s+city: string;/);
      expect(generated).toMatch(/output: \{ forecast: string \};/);

      const tsc = await exec(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
        cwd: app,
        timeout: SLOW,
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      const diagnostics = tsc.stdout.split('\n').filter((line) => /^\S+\.ts\(\d+,\d+\): error/.test(line));
      // Every other file of the app compiles; both mistakes in wrong.ts are caught.
      expect(diagnostics.filter((line) => !line.startsWith('wrong.ts'))).toEqual([]);
      expect(diagnostics.map((line) => /^wrong\.ts\((\d+),/.exec(line)?.[1])).toEqual(['8', '9']);
      expect(tsc.stdout).toContain("Property 'weather_getWether' does not exist");
      expect(tsc.stdout).toContain("Property 'city' is missing in type '{ town: string; }'");

      expect((await runTs('typed.ts', [], env)).stdout.trim()).toBe('Sunny in Oslo');
    },
    SLOW,
  );

  it(
    "answers each newcomer's mistake with an error that names the fix",
    async () => {
      const { stdout } = await runTs('mistakes.ts', [serverUrl.href]);
      const errors = Object.fromEntries(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { mistake: string; id?: string; message: string })
          // Ports are ephemeral: named as PORT.
          .map(({ mistake, id, message }) => [
            mistake,
            (id ? `${id}: ${message}` : message).replace(/:\d+\//g, ':PORT/'),
          ]),
      );
      expect(errors).toEqual({
        'servers misspelt':
          'MCP_CLIENT_INVALID_OPTION: MCPClient: `server` is not an option of MCPClient; did you mean `servers`?',
        'timeout misspelt':
          "MCP_CLIENT_INVALID_SERVER_CONFIG: MCPClient: `servers.weather.timout` is not an option of server 'weather'; did you mean `timeout`?",
        'requestInit misspelt':
          "MCP_CLIENT_INVALID_SERVER_CONFIG: MCPClient: `servers.weather.requestInt` is not an option of server 'weather'; did you mean `requestInit`?",
        'tools misspelt':
          "MCP_SERVER_INVALID_OPTION: MCP server 'weather': `tool` is not an option of MCPServer; did you mean `tools`?",
        'limits key misspelt':
          "MCP_SERVER_INVALID_LIMITS_OPTION: MCP server 'weather': `limits.maxBodyByte` is not an option of `limits`; did you mean `maxBodyBytes`?",
        'timeout as a string':
          'MCP_CLIENT_INVALID_SERVER_CONFIG: MCPClient: `servers.weather.timeout` must be a number, got a string',
        'a raw zod shape as a schema':
          "MCP_SERVER_INVALID_TOOL: Tool 'shaped': inputSchema could not be converted: it is a raw zod shape (an object of schemas), not a schema; wrap it: z.object({ city: … })",
        'a string schema':
          "MCP_SERVER_INVALID_TOOL: Tool 'stringy' cannot be published: its inputSchema has type \"string\", and MCP carries tool arguments as one object (clients drop a tool whose inputSchema is not `type: 'object'`); describe an object, e.g. z.object({ value: z.string() }) or { type: 'object', properties: { value: { type: 'string' } } }",
        'a stdio server that throws at start-up':
          `Failed to connect to MCP server 'db' (command '${process.execPath} crashing-server.mjs'): the process exited with code 1 before answering:\n` +
          `Error: DATABASE_URL is not set\n    at file://${join(app, 'crashing-server.mjs')}:2:17`,
        'a call slower than the timeout':
          "MCP_CLIENT_TOOL_CALL_FAILED: MCP tool 'slow' on server 'local' failed: timed out: no answer within 500 ms (the 'timeout' of server 'local': raise it if the server needs longer)",
        'a call on an HTTP server that went down':
          "MCP_CLIENT_TOOL_CALL_FAILED: MCP tool 'getWeather' on server 'local' failed: Failed to connect to MCP server 'local' at http://127.0.0.1:PORT/mcp: connection refused: nothing listens at that address (ECONNREFUSED)",
        'invalid tool arguments':
          "MCP_CLIENT_INVALID_TOOL_ARGUMENTS: MCP tool 'getWeather' on server 'weather': invalid arguments: city: expected string, got number; pass arguments that match the tool's inputSchema",
      });
    },
    SLOW,
  );
});
