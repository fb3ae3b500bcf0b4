/**
 * What to do about each error id, for the error reference page (scripts/error-reference.ts):
 * keyed like src/errors.ts's ERRORS table (the id without `MCP_`). An id without an entry gets its
 * category's advice; an entry for an id the table no longer has fails the page's generation.
 */

/** The advice for an id without a remedy of its own, and the page's legend of categories. */
export const CATEGORY_ADVICE = {
  USER: 'Yours: change the configuration or the call the message names, as it says.',
  THIRD_PARTY:
    'A server, the network or Redis failed: check the one the message names; `error.cause` holds what it answered.',
  SYSTEM:
    'The local machine refused (a port, a socket): free what the message names or run where it is allowed.',
} as const;

export const REMEDIES: Record<string, string> = {
  CLIENT_INVALID_SERVER_CONFIG:
    'Give the server named in the message exactly one of `command` (stdio) or `url` (HTTP), and fix the option it names.',
  CLIENT_INVALID_TYPEGEN_CONFIG:
    'Set `typegen.outFile` to a non-empty path (relative to where `mastra-mcp generate` runs).',
  CLIENT_INVALID_WEBHOOK_CONFIG:
    'Set `webhook.url` to the absolute `https` URL that reaches `mcp.events.handleWebhook()`.',
  CLIENT_INVALID_OPTION:
    'Rename or retype the option the message names (it suggests the nearest known name); the guides list every option.',
  CLIENT_INVALID_CONFIG_FILE:
    'Fix the file at the line and field the message names: an `mcpServers` entry needs `command` or `url`.',
  CLIENT_MULTIPLE_INITIALIZATIONS:
    'Reuse the first MCPClient, `disconnect()` it before creating another, or give each instance its own `id`.',
  CLIENT_UNKNOWN_SERVER: 'Use one of the server names the message lists (the keys of `servers`).',
  CLIENT_HOST_NOT_ALLOWED:
    "Add the host (with `:port` when it is not the scheme's default) to that server's `allowedHosts`, or stop the redirect or OAuth endpoint that leads there.",
  CLIENT_DISCONNECTED:
    'Start the operation again: the next call reconnects. Do not call `disconnect()` while work is in flight.',
  CLIENT_INPUT_REQUEST_DECLINED:
    'Nothing to fix if declining was meant; otherwise have the `inputRequests` handler answer `accept` with content.',
  CLIENT_INPUT_REQUEST_UNSUPPORTED:
    "Configure the server's `inputRequests` option, which answers URL-mode requests (`elicitation.onRequest()` answers forms only); answer sampling with tools by a sampling `handler` and `capabilities.sampling.tools`.",
  CLIENT_SAMPLING_DENIED:
    "Nothing to fix if denying was meant; otherwise have the sampling option's `onRequest` answer `'allow'` for that server.",
  CLIENT_INVALID_ROOTS:
    'Give every root a `file://` URI (`pathToFileURL(dir).href`), and a `roots` option to the server you call `roots.set()` for.',
  CLIENT_SAMPLING_FAILED:
    'Read the cause: fix the sampling handler, or the agent or model it names (its provider key, its answer); the server was told it failed.',
  CLIENT_SAMPLING_LIMIT:
    'The server asked for more sampling at once than `sampling.maxConcurrent` allows: raise it if the server is trusted to.',
  CLIENT_PROXY_TOOL_NOT_FOUND:
    'Call one of the tools the message lists, or `getToolListInfo()` for the live list.',
  CLIENT_PROXY_INVALID_TOOL_INPUT:
    "Pass arguments that match the tool's input schema; the message names the field.",
  CLIENT_INVALID_TOOL_ARGUMENTS:
    "Pass arguments that match the tool's `inputSchema`: the message names the field and what it expects.",
  CLIENT_CONNECT_FAILED:
    'Read the cause in the message (refused, DNS, TLS, HTTP status, timeout, exit code): start the server, fix the URL or command, or raise `timeout`.',
  CLIENT_STDIO_SERVER_EXITED:
    'Read what the process printed (in the message): fix the command, or pass the variable it names through `env`.',
  CLIENT_REQUEST_TIMEOUT:
    'Raise `perServerTimeoutMs`, or check why the server the message names is slow; the other servers answered.',
  CLIENT_INVALID_TOOL_DEFINITION:
    "The server's tool is left out, the others work: fix its schema on the server (the message names the tool and the problem).",
  CLIENT_UNSUPPORTED_SCHEMA_DIALECT:
    'Have the server publish JSON Schema 2020-12, 2019-09, draft-07 or draft-06, or pass a `jsonSchemaValidator` that supports its dialect.',
  CLIENT_TOOL_CALL_FAILED:
    'Read the cause (transport, timeout, protocol error): check the server, or raise `timeout` for slow tools.',
  CLIENT_TOOL_ERROR:
    "The tool ran and reported a failure: its text is the message. Fix the arguments, or set `onToolError: 'return'` to get the result instead of an error.",
  CLIENT_TASK_FAILED:
    "The server's JSON-RPC error is in `error.details`: fix what it names and start the task again.",
  CLIENT_TASK_CANCELLED:
    'Nothing to fix if you cancelled it; otherwise the status message says why the server did.',
  CLIENT_TASK_NOT_FOUND:
    "The task expired (the server's TTL), was never created or is another caller's: start it again, and follow it within the TTL.",
  CLIENT_TASKS_NOT_SUPPORTED:
    'Call the tool directly (`listTools()`), or turn on `tasks` on the server; tasks need protocol 2026-07-28.',
  CLIENT_TASK_INPUT_UNANSWERED:
    "Give that server an `inputRequests` handler so the task's questions can be answered.",
  CLIENT_READ_RESOURCE_FAILED:
    "Check the URI against `resources.list()` / `resources.templates()`; the server's answer is the cause.",
  CLIENT_SKILLS_NOT_SUPPORTED:
    'The server does not serve skills: leave it out of `toMastraSkills({ servers })`, or read the `SKILL.md` files its `resources/list` shows with `resources.read()` (unverified).',
  CLIENT_LIST_SKILLS_FAILED:
    'Check the server the message names; a listing longer than `skills.maxSkills` is refused: raise that option only for a server you trust.',
  CLIENT_GET_SKILL_FAILED:
    "Give the URI of a skill's `SKILL.md` (as `skills.list()` or the server's instructions show it); the server's answer is the cause.",
  CLIENT_READ_SKILL_FAILED:
    "The file did not match its skill's entry even after the entry was fetched again, or could not be read: the server serves content it did not list; nothing of it was loaded. A refused path must stay inside the skill's folder.",
  CLIENT_SUBSCRIBE_RESOURCE_FAILED:
    'The server offers no resource subscriptions (or not on its revision): read the resource again instead of subscribing.',
  CLIENT_LIST_RESOURCES_FAILED: "Check the server the message names; the server's answer is the cause.",
  CLIENT_GET_PROMPT_FAILED:
    "Check the prompt's name, `version` and required `args` against `prompts.list()`; the server's answer is the cause.",
  CLIENT_LIST_PROMPTS_FAILED: "Check the server the message names; the server's answer is the cause.",
  CLIENT_SERVER_PROXY_FAILED:
    'Fix each server the message names, or remove it from `servers`: no partial map is made.',
  CLIENT_LIST_EVENTS_FAILED:
    "`error.cause` says why: a server without MCP Events (`MCP_EVENTS_NOT_SUPPORTED`) or the server's own error.",
  CLIENT_SUBSCRIBE_EVENT_FAILED:
    "`error.cause` says why: no events support, no common delivery mode, no `webhook` option, or the server's refusal.",
  CLIENT_AUTH_REQUIRED:
    "Give the server an `authProvider` and run `mcp.authenticate(server)` (the server's auth state is now `'needs-auth'`), or send a token in `requestInit`.",
  CLIENT_AUTH_FAILED:
    "Check the provider's client identity, redirect URL and scopes with the authorization server; the cause has its answer.",
  CLIENT_AUTH_NOT_SUPPORTED:
    'Give that HTTP server an `MCPOAuthClientProvider` with a loopback `http` redirect URL, or host the callback yourself for another redirect URL.',
  CLIENT_AUTH_INVALID_TIMEOUT: 'Pass `timeoutMs` as a positive number of milliseconds.',
  CLIENT_AUTH_CANCELLED:
    'Nothing to fix if you cancelled it (`cancelAuthentication()`, `disconnect()`); call `authenticate()` again.',
  CLIENT_AUTH_TIMEOUT:
    'Call `authenticate()` again and complete the sign-in sooner, or pass a larger `timeoutMs`.',
  CLIENT_OAUTH_INVALID_CONFIG:
    'Fix the fields the message names: at most one of `clientInformation` or `clientMetadataUrl`, and a non-empty token.',
  CLIENT_OAUTH_INVALID_REDIRECT_URL:
    'Use a loopback `http` redirect URL (`http://127.0.0.1:<port>/...`) for the built-in callback server, or serve your own callback for an `https` one.',
  CLIENT_OAUTH_NO_CLIENT_IDENTITY:
    'Register a client with that authorization server and pass `clientInformation: { client_id }` (or `clientMetadataUrl`, where it accepts Client ID Metadata Documents); without either the provider registers one only where the server has a `registration_endpoint`.',
  CLIENT_OAUTH_NO_REDIRECT_HANDLER:
    'Give the provider `onRedirectToAuthorization` (open the browser, or hand the URL to your user).',
  CLIENT_OAUTH_NO_CODE_VERIFIER:
    'Start the sign-in with `authenticate()` on the same provider (and storage) that will receive the code.',
  CLIENT_OAUTH_PROVIDER_BUSY: 'Give each server its own `MCPOAuthClientProvider`.',
  CLIENT_OAUTH_INVALID_STATE:
    'Pass `createOAuthCallbackServer()` the non-empty `state` of the authorization you started.',
  CLIENT_OAUTH_AUTHORIZATION_FAILED:
    "The authorization server refused (the message has its `error` and description): fix the client's registration or scopes, or sign in again.",
  CLIENT_OAUTH_CALLBACK_CLOSED: 'Start the sign-in again and keep the flow open until the browser returns.',
  CLIENT_OAUTH_CALLBACK_LISTEN_FAILED: 'Use a redirect URL on a loopback address this process may listen on.',
  CLIENT_OAUTH_CALLBACK_PORT_IN_USE:
    'Free one of the ports the message lists, or choose another redirect port (and register its candidates, `getCallbackUrlCandidates()`).',
  EVENTS_NOT_SUPPORTED:
    'The server offers no MCP Events (or not on 2026-07-28): use its tools or resources instead.',
  EVENTS_NO_COMPATIBLE_DELIVERY_MODE:
    "Drop the forced `delivery`, or configure the client's `webhook` option when the event offers webhook only.",
  EVENTS_WEBHOOK_NOT_CONFIGURED:
    "Configure the MCPClient's `webhook` option, or do not force `delivery: 'webhook'`.",
  EVENTS_INVALID_WEBHOOK_SECRET_SIZE: 'Ask `generateWebhookSecret()` for 24 to 64 bytes.',
  EVENTS_TOOL_NEEDS_MEMORY:
    'Call the agent with memory: a thread and a resource (`memory: { thread, resource }`).',
  EVENTS_SUBSCRIPTION_FAILED:
    'The server refused for good (forbidden, invalid arguments, unsupported, unknown event): fix what the cause names and subscribe again.',
  EVENTS_SUBSCRIPTION_TERMINATED:
    'The server ended the subscription (the event was removed or the server is going away): subscribe again later.',
  EVENTS_RETRIES_EXHAUSTED:
    'Check the server; raise `retry.maxAttempts` to wait longer. Subscribing again resumes from the saved cursor.',
  EVENTS_BUFFER_OVERFLOW:
    'Read the subscription faster, or raise `maxBufferedEvents`; the next occurrence is marked `truncated`.',
  EVENTS_WEBHOOK_UNAVAILABLE:
    'Delivery goes on in the fallback mode (`details.fallback`); for webhooks, authenticate over HTTP and stay under the server cap.',
  EVENTS_WEBHOOK_DELIVERY_FAILING:
    'Make `webhook.url` reachable from the server and answer 200 from `handleWebhook()`; `details.lastError` says what fails.',
  EVENTS_DELIVERY_INTERRUPTED: 'Nothing to do: it is retried. Check the server if it repeats.',
  EVENTS_SERVER_ERROR: 'Nothing to do on the client: the stream goes on. Check the server the message names.',
  EVENTS_WEBHOOK_ENQUEUE_FAILED:
    'The occurrence is stored (poll and push get it) but no webhook carries it: bring Redis back, then `emit()` again with the same `eventId`.',
  SERVER_INVALID_OPTION:
    'Rename or retype the option the message names (it suggests the nearest known name); the guides list every option.',
  SERVER_INVALID_LIMITS_OPTION:
    'Set the `limits` field the message names to a positive number (or leave it out for its default).',
  SERVER_INVALID_REQUEST_STATE_OPTION:
    'Give `requestState.key` at least 32 bytes (`openssl rand -base64 32`), the same on every instance, and an `instanceId` that is a valid header value.',
  SERVER_APP_RESOURCE_INVALID:
    'Key the entry by a `ui://` URI and give it a `name` and exactly one of `html` or `htmlPath` (a readable file).',
  SERVER_NOTIFICATION_BUS_NEEDS_ID: 'Give the MCPServer an explicit `id`, the same on every instance.',
  SERVER_TOOL_NOT_FOUND:
    'Use a tool name from `getToolListInfo()` (agents are `ask_<key>`, workflows `run_<key>`).',
  SERVER_ELICITATION_NEEDS_TOOL_CONTEXT: 'Ask from inside the tool: `context.mcp.elicitation.sendRequest()`.',
  SERVER_ELICITATION_UNAVAILABLE:
    'Serve with sessions (not `serverless`) for tools that ask for input, or have the tool go on without asking.',
  SERVER_SAMPLING_UNAVAILABLE:
    'Serve with sessions (not `serverless`) for tools and prompts that ask the client to sample, or have them go on without it.',
  SERVER_ROOTS_UNAVAILABLE:
    "Serve with sessions (not `serverless`) for tools and prompts that list the client's roots, or have them go on without them.",
  SERVER_INVALID_INPUT_KEY:
    'Give each input request of a call its own non-empty `key`, or leave `key` out for a generated one.',
  SERVER_INPUT_REQUEST_UNANSWERED:
    'The client did not answer in time: retry the call sooner, or raise `limits.suspendedCallTimeoutMs`.',
  SERVER_ALREADY_SERVING_STDIO: 'Call `startStdio()` once per process.',
  SERVER_INVALID_SKILLS_OPTION:
    'Give `skills` an array of `createSkill()` values and skill paths, or an object with `skills`, `agents`, `sources` (each `{ source, paths }`), `prefix`, `pageSize` and `cacheHint`, as the message says.',
  SERVER_SKILL_INVALID:
    'Fix the skill the message names (its SKILL.md frontmatter, its size or file count, a symlink or unreadable file in its folder) or leave it out of `skills`; `await server.skills.ready()` reports it before serving.',
  SERVER_NO_RESOURCES: 'Configure `resources` (or `appResources`) on the MCPServer before reading them.',
  SERVER_AGENT_DESCRIPTION_MISSING:
    "Give the agent a `description`: it becomes the `ask_<agent>` tool's description.",
  SERVER_WORKFLOW_DESCRIPTION_MISSING:
    "Give the workflow a `description`: it becomes the `run_<workflow>` tool's description.",
  SERVER_INVALID_TOOL:
    'Pass a tool object (`createTool()` or AI SDK `tool()`) whose schemas are an object schema, and one UI link per tool; the message names the tool and field.',
  SERVER_TOOL_NOT_EXECUTABLE: 'Give the tool an `execute` function.',
  SERVER_INVALID_TOOL_ARGUMENTS:
    "Pass arguments that match the tool's input schema (the message names each failing field), or a run's resume schema for `resume_<workflow>`.",
  SERVER_TOOL_OUTPUT_INVALID: "Return what the tool's `outputSchema` describes, or change the schema.",
  SERVER_WORKFLOW_FAILED:
    'Fix the failing step (its error is the cause); a workflow that suspends must be registered on a Mastra instance with storage to resume.',
  SERVER_CALLBACK_FAILED:
    'Fix the callback the message names (a resource, prompt or completion handler); `error.cause` is what it threw.',
  SERVER_INVALID_OAUTH_CONFIG:
    'Give `resource` and every `authorizationServers` entry as absolute URLs without a fragment, with at least one authorization server.',
  SERVER_INVALID_HTTP_OPTION:
    'Fix the `listen()` or `http` option the message names: a path starting with `/`, `cors.origins` as full origins (`https://app.example.com`), a port from 0 to 65535.',
  SERVER_LISTEN_FAILED:
    'Choose a free port (`port: 0` picks one), stop the process holding it, or listen on an address of this machine (`127.0.0.1`, `0.0.0.0`).',
  SERVER_TOKEN_INTROSPECTION_FAILED:
    'Check the introspection URL and the `clientId`/`clientSecret` the validator sends.',
  SERVER_INVALID_EVENTS_OPTION:
    'Rename or retype the `events` option the message names (it suggests the nearest known name).',
  SERVER_EVENTS_NOT_CONFIGURED:
    'Configure `events` on the MCPServer (even `events: { types: {} }`) before `events.define()`.',
  SERVER_INVALID_EVENT_TYPE:
    'Give the event type a name and at least one delivery mode the server offers (webhook needs the `webhook` option).',
  SERVER_INVALID_EVENT_DATA:
    "Emit a JSON object that passes the type's `payloadSchema`; the message names the field.",
  SERVER_EVENTS_CLOSED: 'Emit before `close()`, or on the server that replaced it.',
  SERVER_UNKNOWN_EVENT_TYPE: 'Define the type in `events.types` (or `events.define()`) before emitting it.',
  SERVER_INVALID_TASKS_OPTION:
    "Fix the `tasks` field the message names: support is `'optional'`, `'required'` or `'forbidden'`, for a tool the server publishes; numbers are positive integers.",
  SERVER_TASKS_STORE_FULL: "Raise the store's `maxTasks`, or let tasks finish (or cancel them) first.",
  REDIS_INVALID_OPTION:
    'Fix the store option the message names (positive numbers, a non-empty `serverId`, a `reader` of its own).',
  REDIS_UNAVAILABLE:
    'Bring Redis back or check the client is connected; the operation was not applied. Raise `timeoutMs` for a slow Redis.',
  REDIS_COMMAND_FAILED:
    "Redis refused the command (e.g. `WRONGTYPE`): something else writes under the store's key prefix; give the store a prefix of its own.",
  REDIS_MALFORMED_MESSAGE:
    'Give each server its own channel or key prefix: something else publishes on the channel the message names.',
};
