/**
 * One server of a host config file made a server definition, as the host would run it. `command`
 * (or `type: 'stdio'`) is a stdio server: its environment is the default inherited one (the SDK's
 * short list, as Claude Desktop gives), then the `envFile`'s variables, then `env`. `url` is an
 * HTTP server: `headers` go with every request, `type: 'sse'` picks the legacy SSE transport and
 * `http`, `streamable-http` or no type Streamable HTTP with the SSE fallback (as VS Code and Cursor
 * do). Variables are replaced in `command`, `args`, `env`, `envFile`, `cwd`, `url` and `headers`
 * (variables.ts); a relative `cwd` or `envFile` is resolved against the workspace folder. Keys the
 * hosts use for themselves are accepted: `dev` is ignored, and an enabled `sandboxEnabled` (which
 * is not applied) or Cursor's `auth` (which is not read) leaves a warning.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { MCPErrorCode, mcpError } from '../../errors.js';
import {
  anything,
  arrayOf,
  boolean,
  either,
  nullValue,
  number,
  type OptionsOf,
  oneOf,
  recordOf,
  string,
} from '../../shared/options.js';
import type { HttpServerDefinition, MastraMCPServerDefinition, StdioServerDefinition } from '../types.js';
import type { MCPConfigServer } from './types.js';
import { substitute, type VariableScope } from './variables.js';

/** The keys of a server entry in the hosts' files, and their types. */
export const CONFIG_SERVER = {
  type: oneOf('stdio', 'http', 'streamable-http', 'sse'),
  command: string,
  args: arrayOf(string),
  env: recordOf(() => either(string, number, nullValue)),
  envFile: string,
  cwd: string,
  url: string,
  headers: recordOf(() => string),
  dev: anything,
  sandboxEnabled: boolean,
  sandbox: anything,
  auth: anything,
} satisfies OptionsOf<MCPConfigServer>;

const STDIO_ONLY = ['command', 'args', 'env', 'envFile', 'cwd'] as const;
const HTTP_ONLY = ['url', 'headers'] as const;

/** Where an entry is read: every message opens with `where` and names the entry by `path`. */
export interface EntrySite {
  where: string;
  path: string;
  scope: VariableScope;
  /** Collects the variables that cannot be replaced, all reported at once by the loader. */
  problems: string[];
  /** fromConfig()'s `servers` option gives this server an `authProvider` (Cursor's `auth` is then moot). */
  authProvided: boolean;
}

/** Throws the problem at `field` of the entry (the entry itself without one). */
function fail(site: EntrySite, field: string | undefined, message: string): never {
  const at = field === undefined ? site.path : `${site.path}.${field}`;
  throw mcpError(MCPErrorCode.CLIENT_INVALID_CONFIG_FILE, `${site.where}: \`${at}\` ${message}`, {
    field: at,
  });
}

/** What the entry says it is: its `type`, else what its keys imply (as the hosts infer it). */
function declaredKind(entry: MCPConfigServer): 'stdio' | 'http' | undefined {
  if (entry.type) return entry.type === 'stdio' ? 'stdio' : 'http';
  if (entry.command !== undefined) return 'stdio';
  return entry.url !== undefined ? 'http' : undefined;
}

/** The stdio or HTTP kind the entry is, its `type` and its keys agreeing. */
function kindOf(entry: MCPConfigServer, site: EntrySite): 'stdio' | 'http' {
  const kind = declaredKind(entry);
  if (!kind) fail(site, undefined, 'needs `command` (a stdio server) or `url` (an HTTP server)');
  const [needed, foreign, other] =
    kind === 'stdio' ? (['command', HTTP_ONLY, 'HTTP'] as const) : (['url', STDIO_ONLY, 'stdio'] as const);
  if (entry[needed] === undefined)
    fail(site, needed, `is required: the server is ${kind === 'stdio' ? 'a stdio' : 'an HTTP'} server`);
  const stray = foreign.find((key) => entry[key] !== undefined);
  if (stray)
    fail(site, stray, `is an option of ${other} servers; this one is ${kind === 'stdio' ? 'stdio' : 'HTTP'}`);
  return kind;
}

async function envFileVariables(file: string, site: EntrySite): Promise<Record<string, string>> {
  try {
    return parseEnv(await readFile(file, 'utf8')) as Record<string, string>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return fail(
      site,
      'envFile',
      `cannot be read: ${code === 'ENOENT' ? 'no such file' : String(code)} (${file})`,
    );
  }
}

async function stdioDefinition(
  entry: MCPConfigServer,
  site: EntrySite,
  text: (field: string, value: string) => string,
): Promise<StdioServerDefinition | undefined> {
  const folder = site.scope.workspaceFolder;
  const before = site.problems.length;
  const definition: StdioServerDefinition = { command: text('command', entry.command as string) };
  if (entry.args) definition.args = entry.args.map((arg, index) => text(`args[${index}]`, arg));
  if (entry.cwd) definition.cwd = path.resolve(folder, text('cwd', entry.cwd));
  const envFile = entry.envFile && path.resolve(folder, text('envFile', entry.envFile));
  const listed: [string, string | undefined][] = Object.entries(entry.env ?? {}).map(([name, value]) => [
    name,
    value === null ? undefined : text(`env.${name}`, String(value)),
  ]);
  // A variable left unreplaced is reported with the others; no file is read before.
  if (site.problems.length > before) return undefined;
  const env = envFile ? await envFileVariables(envFile, site) : {};
  for (const [name, value] of listed) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  if (Object.keys(env).length > 0) definition.env = env;
  return definition;
}

function httpDefinition(
  entry: MCPConfigServer,
  site: EntrySite,
  text: (field: string, value: string) => string,
): HttpServerDefinition | undefined {
  const before = site.problems.length;
  const address = text('url', entry.url as string);
  const headers = Object.fromEntries(
    Object.entries(entry.headers ?? {}).map(([name, value]) => [name, text(`headers.${name}`, value)]),
  );
  // A variable left unreplaced is reported with the others; the URL is not judged before.
  if (site.problems.length > before) return undefined;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return fail(site, 'url', 'is not a URL (http://… or https://…)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(site, 'url', `must be an http:// or https:// URL, not ${url.protocol}`);
  return {
    url,
    ...(entry.headers ? { requestInit: { headers } } : {}),
    ...(entry.type === 'sse' ? { transport: 'sse' as const } : {}),
  };
}

/**
 * The definition `entry` (already checked against CONFIG_SERVER) stands for, and the warnings it
 * leaves; undefined when one of its variables cannot be replaced (in `site.problems`).
 */
export async function definitionFromEntry(
  entry: MCPConfigServer,
  site: EntrySite,
): Promise<{ definition: MastraMCPServerDefinition | undefined; warnings: string[] }> {
  const kind = kindOf(entry, site);
  const text = (field: string, value: string) =>
    substitute(value, site.scope, (what) => site.problems.push(`\`${site.path}.${field}\`: ${what}`));
  const warnings: string[] = [];
  if (entry.sandboxEnabled === true)
    warnings.push(
      `${site.where}: \`${site.path}.sandboxEnabled\` is VS Code's sandbox, which this client does not apply: the server runs with this process's permissions`,
    );
  if (entry.auth !== undefined && !site.authProvided)
    warnings.push(
      `${site.where}: \`${site.path}.auth\` (Cursor's OAuth client) is not read: give the server an \`authProvider\` (MCPOAuthClientProvider) through fromConfig()'s \`servers\` option`,
    );
  const definition =
    kind === 'stdio' ? await stdioDefinition(entry, site, text) : httpDefinition(entry, site, text);
  return { definition, warnings };
}
