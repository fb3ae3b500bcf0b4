/**
 * `mcpClient.skills`: one ServerSkills per configured server (built on first use), fan-outs for
 * the listing, and the Mastra bridge. The SDK's skills client loads with the first skills call,
 * Mastra's Workspace with the first toMastraSkills() (src/shared/lazy-module.ts).
 */
import { MCPErrorCode } from '../../errors.js';
import { lazyModule } from '../../shared/lazy-module.js';
import {
  arrayOf,
  assertOptions,
  either,
  fn,
  type OptionsOf,
  object,
  recordOf,
  string,
} from '../../shared/options.js';
import type { ConnectionLookup } from '../actions.js';
import { fanOut } from '../fan-out.js';
import type { WithErrorsOptions } from '../types.js';
import type { MCPClientSkills } from './api.js';
import { SkillFileCache } from './file-cache.js';
import { DEFAULT_MAX_CACHED_BYTES, DEFAULT_MAX_SKILLS, type MCPClientSkillsOptions } from './options.js';
import type { ServerSkills } from './server-skills.js';
import type { MCPMastraSkillsOptions } from './types.js';

const loadServerSkills = lazyModule(() => import('./server-skills.js'));
const loadBridge = lazyModule(() => import('./bridge.js'));

const strings = arrayOf(string);
const selector = either(strings, fn);

const MASTRA_OPTIONS = object(
  {
    servers: strings,
    uris: recordOf(() => strings),
    allowDynamic: selector,
    allowedTools: selector,
    id: string,
  } satisfies OptionsOf<MCPMastraSkillsOptions>,
  'toMastraSkills() options',
);

export function skillActions(
  lookup: ConnectionLookup,
  options: MCPClientSkillsOptions = {},
): MCPClientSkills {
  const cache = new SkillFileCache(options.maxCachedBytes ?? DEFAULT_MAX_CACHED_BYTES);
  const servers = new Map<string, ServerSkills>();
  const of = async (serverName: string): Promise<ServerSkills> => {
    const connection = lookup.get(serverName);
    const { ServerSkills } = await loadServerSkills();
    let server = servers.get(serverName);
    if (!server) {
      server = new ServerSkills(connection, cache, options.maxSkills ?? DEFAULT_MAX_SKILLS);
      servers.set(serverName, server);
    }
    return server;
  };
  const listAll = (fanOptions?: WithErrorsOptions) =>
    fanOut(lookup.names(), async (name, signal) => (await of(name)).list(signal), fanOptions, lookup.get);
  return {
    list: async () => (await listAll()).values,
    listWithErrors: async (fanOptions?: WithErrorsOptions) => {
      const { values, ...rest } = await listAll(fanOptions);
      return { skills: values, ...rest };
    },
    get: async (serverName, uri) => (await of(serverName)).get(uri),
    read: async (serverName, uri) => (await of(serverName)).read(uri),
    toMastraSkills: async (mastraOptions: MCPMastraSkillsOptions = {}) => {
      assertOptions(MASTRA_OPTIONS, mastraOptions, {
        where: 'skills.toMastraSkills()',
        label: 'the toMastraSkills() options',
        code: MCPErrorCode.CLIENT_INVALID_OPTION,
      });
      const names = [
        ...new Set([...(mastraOptions.servers ?? lookup.names()), ...Object.keys(mastraOptions.uris ?? {})]),
      ];
      // An unknown server name throws here, naming the configured ones.
      for (const name of names) lookup.get(name);
      const { MCPWorkspaceSkills, MCPSkillsWorkspace } = await loadBridge();
      const skills = new MCPWorkspaceSkills(await Promise.all(names.map(of)), mastraOptions);
      await skills.load();
      return new MCPSkillsWorkspace(skills, mastraOptions.id ?? 'mcp-skills');
    },
  };
}
