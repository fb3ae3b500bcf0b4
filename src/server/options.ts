/**
 * The description of every options object MCPServer takes: the constructor's config with
 * everything nested in it (`limits`, `tasks`, `events` and its `webhook`, `requestState`,
 * `notifications`, `resources`, `prompts`, `appResources`, `fga`, registry metadata) and the
 * options of `startHTTP()`, checked by src/shared/options.ts. A problem is raised under the id of
 * the option group it is in. Checks further in that know more than a type (limit ranges, task
 * support values, request-state keys, app resource files, tool schemas) stay where they are; these
 * catch unknown keys and wrong types before anything is built.
 */
import type { MCPServerHTTPOptions } from '@mastra/core/mcp';
import { MCPErrorCode } from '../errors.js';
import {
  anyObject,
  anything,
  arrayOf,
  assertOptions,
  boolean,
  either,
  fn,
  nullValue,
  number,
  type OptionsOf,
  type OptionsSite,
  object,
  oneOf,
  recordOf,
  required,
  string,
  url,
} from '../shared/options.js';
import { TELEMETRY } from '../shared/telemetry/options.js';
import { OAUTH_PROTECTION_OPTIONS } from './auth/oauth-middleware.js';
import type {
  MCPEventTypeConfig,
  MCPServerEventsConfig,
  MCPServerWebhookOptions,
  MCPServerWebhookRetryOptions,
} from './events/types.js';
import { DEFAULT_LIMITS, type MCPServerLimits } from './limits.js';
import type { MCPServerRequestStateOptions } from './request-state.js';
import type { MCPServerSkillsConfig, MCPSkillSourceConfig } from './skills/types.js';
import type { MCPServerTasksConfig, MCPToolTaskConfig } from './tasks/types.js';
import type { MCPServerCorsOptions } from './transports/cors.js';
import type {
  AppResource,
  MCPServerConfig,
  MCPServerHttpConfig,
  MCPServerListenOptions,
  MCPServerPrompts,
  MCPServerResources,
  MCPUiResourceCsp,
  MCPUiResourcePermissions,
  McpUiResourceMeta,
  StreamableHTTPServerTransportOptions,
} from './types.js';

type ServerConfig = Required<MCPServerConfig>;

const strings = arrayOf(string);

/** Every limit is a number; its range is `resolveLimits`'s to check. */
const LIMITS = Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((key) => [key, number])) as OptionsOf<
  Required<MCPServerLimits>
>;

const TASKS = {
  // The support values are TasksService's to check, with the message naming every choice.
  tools: recordOf(() => ({
    ...either(
      string,
      object({ support: string, inputBeforeTask: boolean } satisfies OptionsOf<MCPToolTaskConfig>),
    ),
    expected: "'forbidden', 'optional', 'required' or { support, inputBeforeTask }",
  })),
  store: anyObject,
  ttlMs: either(number, nullValue),
  pollIntervalMs: number,
  maxTasks: number,
  maxTasksPerPrincipal: number,
  maxListenTaskIds: number,
  instanceTimeoutMs: number,
  principal: fn,
} satisfies OptionsOf<MCPServerTasksConfig>;

const EVENT_TYPE = {
  description: string,
  inputSchema: anything,
  payloadSchema: anything,
  delivery: arrayOf(oneOf('poll', 'push', 'webhook')),
  replay: boolean,
  matches: fn,
  authorize: fn,
  _meta: anyObject,
} satisfies OptionsOf<MCPEventTypeConfig>;

const WEBHOOK = {
  maxSubscriptions: number,
  defaultTtlMs: number,
  minTtlMs: number,
  maxTtlMs: number,
  retry: object({
    attempts: number,
    initialDelayMs: number,
    maxDelayMs: number,
  } satisfies OptionsOf<MCPServerWebhookRetryOptions>),
  timeoutMs: number,
  suspendAfter: number,
  secretGraceMs: number,
  verificationTtlMs: number,
  allowPrivateAddresses: boolean,
  fetch: fn,
  principal: fn,
  queue: anyObject,
} satisfies OptionsOf<MCPServerWebhookOptions>;

const EVENTS = {
  types: required(recordOf(() => object(EVENT_TYPE))),
  store: anyObject,
  heartbeatIntervalMs: number,
  pollIntervalMs: number,
  maxPollEvents: number,
  listPageSize: number,
  webhook: either(oneOf(false), object(WEBHOOK)),
  onClose: oneOf('terminate', 'end'),
} satisfies OptionsOf<MCPServerEventsConfig>;

// What a skill is made of is skills/plan.ts's (and the loading's) to check.
const SKILL_INPUTS = arrayOf({ ...either(string, anyObject), expected: 'a path or a createSkill() value' });

const SKILLS = {
  skills: SKILL_INPUTS,
  agents: arrayOf(anyObject),
  sources: arrayOf(
    object({
      source: required(anyObject),
      paths: required(strings),
      dynamic: boolean,
    } satisfies OptionsOf<MCPSkillSourceConfig>),
  ),
  prefix: string,
  pageSize: number,
  cacheHint: object({ ttlMs: number, cacheScope: oneOf('public', 'private') }),
} satisfies OptionsOf<MCPServerSkillsConfig>;

const APP_RESOURCE = {
  name: string,
  description: string,
  html: string,
  htmlPath: string,
  meta: object({
    csp: object({
      connectDomains: strings,
      resourceDomains: strings,
      frameDomains: strings,
      baseUriDomains: strings,
    } satisfies OptionsOf<MCPUiResourceCsp>),
    permissions: object({
      camera: anyObject,
      microphone: anyObject,
      geolocation: anyObject,
      clipboardWrite: anyObject,
    } satisfies OptionsOf<MCPUiResourcePermissions>),
    domain: string,
    prefersBorder: boolean,
  } satisfies OptionsOf<McpUiResourceMeta>),
} satisfies OptionsOf<AppResource>;

const TRANSPORT_OPTIONS = {
  serverless: boolean,
  serverlessStreaming: boolean,
  sessionIdGenerator: fn,
  onsessioninitialized: fn,
  enableJsonResponse: boolean,
  eventStore: anyObject,
  allowedHosts: strings,
  allowedOrigins: strings,
  enableDnsRebindingProtection: boolean,
} satisfies OptionsOf<StreamableHTTPServerTransportOptions>;

// server.fetch's `http` option and listen()'s options (transports/http-serving.ts, listener.ts).
const HTTP_CONFIG = {
  ...TRANSPORT_OPTIONS,
  path: string,
  cors: object({ origins: required(strings) } satisfies OptionsOf<MCPServerCorsOptions>),
  oauth: object(OAUTH_PROTECTION_OPTIONS),
} satisfies OptionsOf<MCPServerHttpConfig>;

const LISTEN_OPTIONS = {
  ...HTTP_CONFIG,
  port: required(number),
  host: string,
  closeTimeoutMs: number,
} satisfies OptionsOf<MCPServerListenOptions>;

const SERVER_CONFIG = {
  id: string,
  name: string,
  version: string,
  description: string,
  instructions: string,
  // Each tool is checked as it is converted (tool-entry.ts), each agent and workflow too.
  tools: anyObject,
  agents: recordOf(() => anyObject),
  workflows: recordOf(() => anyObject),
  mapAuthInfoToUser: fn,
  fga: object({
    resourceMapping: object({
      tool: object({ fgaResourceType: required(string), deriveId: fn }),
      tools: object({ fgaResourceType: required(string), deriveId: fn }),
    }),
    permissionMapping: recordOf(() => string),
  } satisfies OptionsOf<ServerConfig['fga']>),
  repository: object({
    url: string,
    source: string,
    id: string,
  } satisfies OptionsOf<ServerConfig['repository']>),
  releaseDate: string,
  isLatest: boolean,
  packageCanonical: string,
  packages: arrayOf(anyObject),
  remotes: arrayOf(object({ transport_type: string, url: string })),
  resources: object({
    listResources: required(fn),
    getResourceContent: required(fn),
    resourceTemplates: fn,
    completeResourceTemplate: fn,
  } satisfies OptionsOf<MCPServerResources>),
  prompts: object({
    listPrompts: required(fn),
    getPromptMessages: fn,
    completePromptArgument: fn,
  } satisfies OptionsOf<MCPServerPrompts>),
  appResources: recordOf(() => object(APP_RESOURCE)),
  skills: either(SKILL_INPUTS, object(SKILLS)),
  events: object(EVENTS),
  tasks: object(TASKS),
  notifications: object({ bus: anyObject } satisfies OptionsOf<ServerConfig['notifications']>),
  // The key (its presence, type and length) is request-state.ts's to check, with the rotation rules.
  requestState: object({
    key: anything,
    instanceId: string,
  } satisfies OptionsOf<MCPServerRequestStateOptions>),
  limits: object(LIMITS),
  redactErrors: boolean,
  telemetry: TELEMETRY,
  http: object(HTTP_CONFIG),
} satisfies OptionsOf<MCPServerConfig>;

const HTTP_OPTIONS = {
  url: required(url),
  httpPath: required(string),
  req: required(anyObject),
  res: required(anyObject),
  options: object(TRANSPORT_OPTIONS, "startHTTP()'s `options`"),
  cors: HTTP_CONFIG.cors,
} satisfies OptionsOf<MCPServerHTTPOptions & { cors?: unknown }>;

/** A server's option problems: the id by the option group they are in, the server named. */
function site(serverName: string, label: string): OptionsSite {
  return {
    where: `MCP server '${serverName}'`,
    label,
    code: MCPErrorCode.SERVER_INVALID_OPTION,
    groups: {
      limits: MCPErrorCode.SERVER_INVALID_LIMITS_OPTION,
      tasks: MCPErrorCode.SERVER_INVALID_TASKS_OPTION,
      events: MCPErrorCode.SERVER_INVALID_EVENTS_OPTION,
      requestState: MCPErrorCode.SERVER_INVALID_REQUEST_STATE_OPTION,
      appResources: MCPErrorCode.SERVER_APP_RESOURCE_INVALID,
      skills: MCPErrorCode.SERVER_INVALID_SKILLS_OPTION,
    },
    details: () => ({ serverId: serverName }),
  };
}

const SERVER_CHECK = object(SERVER_CONFIG, 'MCPServer');
const HTTP_CHECK = object(HTTP_OPTIONS, 'startHTTP()');
const LISTEN_CHECK = object(LISTEN_OPTIONS, 'listen()');

/** The constructor's config, before anything is built from it; returns it for `super()`. */
export function checkServerConfig(config: MCPServerConfig): MCPServerConfig {
  const name = String(config?.id ?? config?.name ?? '(unnamed)');
  assertOptions(SERVER_CHECK, config, site(name, 'the MCPServer config'));
  return config;
}

/** `events.define(name, config)`: the check of a type in `events.types`. */
export function checkEventType(serverName: string, eventName: string, config: unknown): void {
  const at = `events.define('${eventName}')`;
  assertOptions(object(EVENT_TYPE, `event type '${eventName}'`), config, site(serverName, at), at);
}

/** `startHTTP()`'s argument, on every call (a dozen keys: nothing next to the request). */
export function checkHttpOptions(serverName: string, options: MCPServerHTTPOptions): void {
  assertOptions(HTTP_CHECK, options, site(serverName, 'the startHTTP() options'));
}

/** `listen()`'s argument. */
export function checkListenOptions(serverName: string, options: MCPServerListenOptions): void {
  assertOptions(LISTEN_CHECK, options, site(serverName, 'the listen() options'));
}
