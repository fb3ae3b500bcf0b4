/**
 * `MCPClient.fromConfig()`: a host's config file (a path, a `file:` URL or the parsed object)
 * made MCPClient options. The servers are the file's `mcpServers` (Claude Desktop, Claude Code,
 * Cursor) or `servers` (VS Code); other top-level keys, a host's own settings, are left alone.
 * The file and fromConfig()'s options are checked first (unknown keys with a did-you-mean, wrong
 * types with the path), then the `${input:id}` values are gathered, one ask per input, and each
 * server is converted (entries.ts). Every variable that cannot be replaced is reported in one
 * error, so that one run names all that is missing. Loaded on first use, not with the package.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  anyObject,
  arrayOf,
  assertOptions,
  type Check,
  either,
  fn,
  nearest,
  type OptionsOf,
  object,
  problemOf,
  recordOf,
  string,
} from '../../shared/options.js';
import { CLIENT, EITHER } from '../options.js';
import type { MastraMCPServerDefinition, MCPClientOptions } from '../types.js';
import { CONFIG_SERVER, definitionFromEntry } from './entries.js';
import { parseJsonc } from './jsonc.js';
import type { MCPClientConfigOptions, MCPConfig, MCPConfigInput, MCPConfigServer } from './types.js';
import { inputsIn } from './variables.js';

const INPUT: Check = {
  expected: 'an input (an object with a string `id`)',
  accepts: (value) =>
    typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string',
};

/** The file's parts this client reads; other top-level keys are a host's own settings, left alone. */
const FILE = {
  mcpServers: recordOf((name) => object(CONFIG_SERVER, `server '${name}'`)),
  servers: recordOf((name) => object(CONFIG_SERVER, `server '${name}'`)),
  inputs: arrayOf(INPUT),
};

const FILE_CHECK: Check = {
  expected: "a JSON object with an 'mcpServers' or 'servers' map",
  accepts: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  inner: (value) => {
    for (const [key, check] of Object.entries(FILE)) {
      const problem = problemOf(check, (value as Record<string, unknown>)[key], key);
      if (problem) return problem;
    }
    return undefined;
  },
};

const { servers: _servers, ...clientOptions } = CLIENT;

const OPTIONS = object(
  {
    ...clientOptions,
    servers: recordOf((name) => object(EITHER, `server '${name}'`)),
    inputs: either(
      recordOf(() => string),
      fn,
    ),
    environment: anyObject,
    workspaceFolder: string,
  } satisfies OptionsOf<MCPClientConfigOptions>,
  'MCPClient.fromConfig()',
);

function configError(message: string, field?: string): never {
  throw mcpError(MCPErrorCode.CLIENT_INVALID_CONFIG_FILE, message, field ? { field } : {});
}

/** The content, how messages name it, and the file (for the workspace folder). */
async function read(source: string | URL | MCPConfig) {
  if (typeof source !== 'string' && !(source instanceof URL)) {
    if (typeof source !== 'object' || source === null || Array.isArray(source))
      configError('MCPClient.fromConfig(): give a config file path, a file: URL or the config object');
    return { config: source as unknown, where: 'MCP config', file: undefined };
  }
  const file = path.resolve(source instanceof URL ? fileURLToPath(source) : source);
  const where = `MCP config file '${typeof source === 'string' ? source : file}'`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return configError(
      `${where} cannot be read: ${code === 'ENOENT' ? 'no such file' : String(code)} (${file})`,
    );
  }
  try {
    return { config: parseJsonc(text), where, file };
  } catch (error) {
    return configError(`${where}: ${(error as Error).message}`);
  }
}

/** The servers map, and which key holds it. */
function serversOf(config: unknown, where: string): [string, Record<string, MCPConfigServer>] {
  assertOptions(FILE_CHECK, config, {
    where,
    label: 'the config',
    code: MCPErrorCode.CLIENT_INVALID_CONFIG_FILE,
  });
  const { mcpServers, servers } = config as MCPConfig;
  if (mcpServers && servers)
    configError(`${where} has both 'mcpServers' and 'servers': keep one map of servers`);
  if (mcpServers) return ['mcpServers', mcpServers];
  if (servers) return ['servers', servers];
  const maps = ['mcpServers', 'servers'];
  const typo = Object.keys(config as MCPConfig).find((name) => nearest(name, maps));
  return configError(
    `${where} has no 'mcpServers' map (Claude Desktop, Claude Code, Cursor) nor 'servers' map (VS Code)${typo ? `; did you mean '${nearest(typo, maps)}' for '${typo}'?` : ''}`,
  );
}

/** The value of each `${input:id}` the servers use: given, asked, or the input's `default`. */
async function inputValues(
  servers: Record<string, MCPConfigServer>,
  declared: MCPConfigInput[] | undefined,
  given: MCPClientConfigOptions['inputs'],
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const id of new Set(inputsIn(JSON.stringify(servers)))) {
    const input = declared?.find((entry) => entry.id === id) ?? { id };
    const value =
      (typeof given === 'function'
        ? await given(input)
        : given && Object.hasOwn(given, id)
          ? given[id]
          : undefined) ?? input.default;
    if (value === undefined) continue;
    if (typeof value !== 'string')
      configError(`MCPClient.fromConfig(): the value of input '${id}' must be a string`, `inputs.${id}`);
    values.set(id, value);
  }
  return values;
}

/** `${workspaceFolder}` by default: the project of a `.vscode` or `.cursor` file, else the file's folder. */
function defaultWorkspace(file: string | undefined): string {
  if (!file) return process.cwd();
  const folder = path.dirname(file);
  return ['.vscode', '.cursor'].includes(path.basename(folder)) ? path.dirname(folder) : folder;
}

/** The MCPClient options `source` and `options` make, and the warnings to log once the client exists. */
export async function clientOptionsFromConfig(
  source: string | URL | MCPConfig,
  options: MCPClientConfigOptions<unknown>,
): Promise<{ clientOptions: MCPClientOptions<unknown>; warnings: string[] }> {
  assertOptions(OPTIONS, options, {
    where: 'MCPClient.fromConfig()',
    label: 'the MCPClient.fromConfig() options',
    code: MCPErrorCode.CLIENT_INVALID_OPTION,
    groups: { servers: MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG },
    details: (at) => ({ server: /^servers\.([^.[]+)/.exec(at)?.[1] }),
  });
  const { servers: overrides = {}, inputs, environment, workspaceFolder, ...rest } = options;
  const { config, where, file } = await read(source);
  const [key, entries] = serversOf(config, where);
  const scope = {
    environment: environment ?? process.env,
    inputs: await inputValues(entries, (config as MCPConfig).inputs, inputs),
    workspaceFolder: path.resolve(workspaceFolder ?? defaultWorkspace(file)),
  };
  const problems: string[] = [];
  const warnings: string[] = [];
  // Built as entries: a server may be called `__proto__`, which as an assigned key would not stay one.
  const servers: [string, MastraMCPServerDefinition][] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const override = (Object.hasOwn(overrides, name) && overrides[name]) || {};
    const site = { where, path: `${key}.${name}`, scope, problems, authProvided: 'authProvider' in override };
    const converted = await definitionFromEntry(entry, site);
    warnings.push(...converted.warnings);
    const transport = (['command', 'url'] as const).find((option) => override[option] !== undefined);
    if (transport)
      configError(
        `MCPClient.fromConfig(): \`servers.${name}.${transport}\` would replace the transport of server '${name}' in ${where}; change it there, or leave the server out of the file to define it here`,
        `servers.${name}.${transport}`,
      );
    if (converted.definition)
      servers.push([name, { ...converted.definition, ...override } as MastraMCPServerDefinition]);
  }
  if (problems.length > 0)
    configError(
      `${where}: ${problems.length === 1 ? 'a variable has' : `${problems.length} variables have`} no value: ${problems.join('; ')}. Set the environment variables (or fromConfig()'s \`environment\` option) and give input values with its \`inputs\` option`,
    );
  for (const [name, override] of Object.entries(overrides)) {
    if (Object.hasOwn(entries, name)) continue;
    if (override.command === undefined && override.url === undefined) {
      const close = nearest(name, Object.keys(entries));
      configError(
        `MCPClient.fromConfig(): \`servers.${name}\` is not a server of ${where}${close ? `; did you mean '${close}'?` : ''} (to add a server, give it \`command\` or \`url\`)`,
        `servers.${name}`,
      );
    }
    servers.push([name, override as MastraMCPServerDefinition]);
  }
  return { clientOptions: { ...rest, servers: Object.fromEntries(servers) }, warnings };
}
