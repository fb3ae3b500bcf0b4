/**
 * The description of MCPClient's options, each server definition (stdio or HTTP), the `webhook`
 * option and `events.subscribe()`'s options, checked by src/shared/options.ts (the OAuth providers
 * and MCPEventsSignalProvider describe theirs beside their interfaces). A problem is raised under
 * the id of the option it is in (a server definition, `typegen`, `webhook`). Checks further in
 * that know more than a type (bounds, URLs, secrets, tool patterns) stay where they are; these
 * catch unknown keys and wrong types first. What only passes through to the SDK or `fetch`
 * (`requestInit`, `eventSourceInit`, an `authProvider`) is checked at its top level.
 */
import { MCPErrorCode } from '../errors.js';
import {
  absent,
  anyObject,
  anything,
  arrayOf,
  assertOptions,
  boolean,
  type Check,
  either,
  fn,
  joinPath,
  nullValue,
  number,
  type OptionsOf,
  object,
  oneOf,
  recordOf,
  required,
  type Shape,
  shapeProblem,
  string,
  url,
} from '../shared/options.js';
import { TELEMETRY } from '../shared/telemetry/options.js';
import type {
  MCPClientWebhookOptions,
  MCPEventRetryOptions,
  MCPEventSubscribeOptions,
} from './events/types.js';
import type { MCPRoot } from './roots/types.js';
import { isAgent, isModelObject } from './sampling/sampler.js';
import type { MCPSamplingOptions } from './sampling/types.js';
import type { MCPClientSkillsOptions } from './skills/options.js';
import type {
  HttpServerDefinition,
  MCPClientCapabilities,
  MCPClientOptions,
  StdioServerDefinition,
} from './types.js';

const strings = arrayOf(string);
const positiveInteger: Check = {
  expected: 'a positive integer',
  accepts: (value) => Number.isSafeInteger(value) && (value as number) > 0,
};

const SAMPLING_OPTIONS = {
  handler: fn,
  agent: { expected: 'a Mastra Agent', accepts: isAgent },
  model: anything,
  onRequest: fn,
  maxTokens: positiveInteger,
  maxConcurrent: positiveInteger,
} satisfies OptionsOf<MCPSamplingOptions>;

/** A handler, an Agent, a language model (not a v1 one: agents cannot generate with those), or the object form. */
const sampling: Check = {
  expected:
    'a sampling handler (function), a Mastra Agent, a language model or { handler | agent | model, onRequest? }',
  accepts: (value) => typeof value === 'function' || (typeof value === 'object' && value !== null),
  inner: (value, path) => {
    if (typeof value === 'function' || isAgent(value)) return undefined;
    const options = isModelObject(value) ? { model: value } : (value as Record<string, unknown>);
    const at = isModelObject(value) ? path : `${path}.model`;
    if ((options.model as { specificationVersion?: unknown })?.specificationVersion === 'v1')
      return {
        path: at,
        message: `\`${at}\` is an AI SDK v4 (v1) model, which an Agent cannot generate with; use an AI SDK v5 or later model`,
      };
    if (isModelObject(value)) return undefined;
    const problem = shapeProblem(SAMPLING_OPTIONS, options, path, `\`${path}\``);
    const given = (['handler', 'agent', 'model'] as const).filter((key) => options[key] !== undefined);
    if (problem || given.length === 1) return problem;
    return {
      path,
      message: `\`${path}\` needs exactly one of \`handler\`, \`agent\` or \`model\`${given.length ? ` (it has ${given.join(' and ')})` : ''}`,
    };
  },
};
const roots = either(
  arrayOf(object({ uri: required(string), name: string, _meta: anyObject } satisfies OptionsOf<MCPRoot>)),
  fn,
);
const clientInfo = object({ name: string, version: string });
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** What stdio and HTTP servers share. */
const COMMON = {
  logger: fn,
  timeout: number,
  protocolVersion: oneOf('2026-07-28', 'legacy'),
  clientInfo,
  capabilities: object({
    elicitation: object({ form: anyObject, url: anyObject }),
    sampling: object({ tools: anyObject, context: anyObject }),
    roots: object({ listChanged: boolean }),
    extensions: anyObject,
  } satisfies OptionsOf<MCPClientCapabilities>),
  inputRequests: fn,
  sampling,
  roots,
  enableServerLogs: boolean,
  serverLogLevel: oneOf(...LOG_LEVELS),
  enableProgressTracking: boolean,
  traceContext: fn,
  forwardInstructions: boolean,
  instructionsMaxLength: number,
  requireToolApproval: either(boolean, fn),
  onToolError: oneOf('throw', 'return'),
  jsonSchemaValidator: anyObject,
  maxPatternInstructions: number,
  maxMessageBytes: number,
  toolPrefix: string,
  includeTools: strings,
  excludeTools: strings,
};

const STDIO = {
  ...COMMON,
  command: string,
  args: strings,
  env: recordOf(() => string),
  inheritDefaultEnv: boolean,
  cwd: string,
  stderr: either(oneOf('inherit', 'ignore'), fn),
  url: absent('cannot be set together with `command`: a server is either stdio (`command`) or HTTP (`url`)'),
} satisfies OptionsOf<StdioServerDefinition>;

const HTTP = {
  ...COMMON,
  url,
  requestInit: anyObject,
  eventSourceInit: anyObject,
  transport: oneOf('streamable-http', 'sse'),
  fetch: fn,
  allowedHosts: strings,
  authProvider: anyObject,
  command: absent('cannot be set together with `url`: a server is either stdio (`command`) or HTTP (`url`)'),
} satisfies OptionsOf<HttpServerDefinition>;

/** Every key either kind takes, for a definition that has neither `command` nor `url` yet. */
export const EITHER: Shape = { ...HTTP, ...STDIO, url };

/** Keys of the other kind get a message saying which kind they belong to, not a did-you-mean. */
function otherKindProblem(definition: Record<string, unknown>, path: string, own: Shape, other: Shape) {
  const stdio = own === STDIO;
  const key = Object.keys(definition).find(
    (name) => !Object.hasOwn(own, name) && Object.hasOwn(other, name) && !(other[name] as Check).absent,
  );
  if (key === undefined) return undefined;
  const at = joinPath(path, key);
  return {
    path: at,
    message: stdio
      ? `\`${at}\` is an option of HTTP servers (with \`url\`); this server is a stdio server (it has \`command\`)`
      : `\`${at}\` is an option of stdio servers (with \`command\`); this server is an HTTP server (it has \`url\`)`,
  };
}

function serverDefinition(name: string): Check {
  const owner = `server '${name}'`;
  return {
    expected: 'a server definition (an object with `command` for stdio or `url` for HTTP)',
    accepts: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    inner: (value, path) => {
      const definition = value as Record<string, unknown>;
      if (definition.command)
        return (
          otherKindProblem(definition, path, STDIO, HTTP) ?? shapeProblem(STDIO, definition, path, owner)
        );
      if (definition.url)
        return otherKindProblem(definition, path, HTTP, STDIO) ?? shapeProblem(HTTP, definition, path, owner);
      return (
        shapeProblem(EITHER, definition, path, owner) ?? {
          path,
          message: `\`${path}\` needs \`command\` (a stdio server) or \`url\` (an HTTP server)`,
        }
      );
    },
  };
}

const WEBHOOK = {
  url: required(string),
  secret: string,
  ttlMs: either(number, nullValue),
  refreshMarginMs: number,
  maxRememberedDeliveries: number,
} satisfies OptionsOf<MCPClientWebhookOptions>;

export const CLIENT = {
  id: string,
  servers: required(recordOf(serverDefinition, 'an object of server definitions by name')),
  timeout: number,
  // The path's type and emptiness are the constructor's to check, with its message.
  typegen: object({ outFile: anything }),
  clientInfo,
  registerProcessHooks: boolean,
  webhook: object(WEBHOOK),
  toolNameSeparator: string,
  sampling,
  roots,
  skills: object({
    maxSkills: positiveInteger,
    maxCachedBytes: positiveInteger,
  } satisfies OptionsOf<MCPClientSkillsOptions>),
  telemetry: TELEMETRY,
} satisfies OptionsOf<MCPClientOptions>;

/** `events.subscribe()`'s options, and (without `cursor` and `signal`) a signal provider's `subscribeOptions`. */
export const SUBSCRIBE_OPTIONS = {
  delivery: oneOf('webhook', 'push', 'poll'),
  cursor: either(string, nullValue),
  maxAgeMs: number,
  maxEvents: number,
  minPollIntervalMs: number,
  heartbeatTimeoutMs: number,
  streamOpenTimeoutMs: number,
  dedupWindow: number,
  maxBufferedEvents: number,
  retry: object({
    initialDelayMs: number,
    maxDelayMs: number,
    factor: number,
    maxAttempts: number,
  } satisfies OptionsOf<MCPEventRetryOptions>),
  signal: anyObject,
} satisfies OptionsOf<MCPEventSubscribeOptions>;

const CLIENT_CHECK = object(CLIENT, 'MCPClient');

/** `new MCPClient(options)`, before anything is built from them. */
export function checkClientOptions(options: unknown): void {
  assertOptions(CLIENT_CHECK, options, {
    where: 'MCPClient',
    label: 'the MCPClient options',
    code: MCPErrorCode.CLIENT_INVALID_OPTION,
    groups: {
      servers: MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
      typegen: MCPErrorCode.CLIENT_INVALID_TYPEGEN_CONFIG,
      webhook: MCPErrorCode.CLIENT_INVALID_WEBHOOK_CONFIG,
    },
    details: (path) => ({ server: /^servers\.([^.[]+)/.exec(path)?.[1] }),
  });
}

const SUBSCRIBE_CHECK = object(SUBSCRIBE_OPTIONS, 'events.subscribe() options');

/** `events.subscribe()`'s options. */
export function checkSubscribeOptions(options: unknown): void {
  assertOptions(SUBSCRIBE_CHECK, options, {
    where: 'events.subscribe()',
    label: 'the events.subscribe() options',
    code: MCPErrorCode.CLIENT_INVALID_OPTION,
  });
}
