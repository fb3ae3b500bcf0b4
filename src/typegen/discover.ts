/**
 * Tool discovery for one client: `listToolDefinitionsWithErrors()` lists tools and never calls
 * them. A server that fails is reported by name with its HTTP status or error code only: the
 * error text can quote URLs with credentials or a transport's internals, so it is not printed.
 */
import type { MCPToolDefinition } from '../client/tools/definition.js';
import { describeSubject, printable } from './diagnostics.js';
import type { GeneratorClient, SelectedClient } from './load-clients.js';
import type { Catalogue } from './render.js';

/** What MCPClient reports about tools its listing left out for exceeding a schema budget. */
type SkippedTools = Record<
  string,
  Record<string, { field: 'inputSchema' | 'outputSchema'; kind: 'depth' | 'nodes' | 'raw'; message: string }>
>;
const SKIPPED_TOOLS = Symbol.for('mastra-mcp.skippedTools');

function skippedBy(client: GeneratorClient): SkippedTools {
  const read = (client as { [SKIPPED_TOOLS]?: () => SkippedTools })[SKIPPED_TOOLS];
  return typeof read === 'function' ? read.call(client) : {};
}

/**
 * Tools the client skipped: too deep cannot be represented (a failure); over the node or raw JSON
 * budget widens to `unknown` (a warning). The client dropped the whole tool, so both sides widen.
 */
function budgetVerdicts(client: GeneratorClient, where: string, catalogue: Catalogue) {
  const failures: string[] = [];
  const warnings: string[] = [];
  for (const [server, tools] of Object.entries(skippedBy(client))) {
    for (const [tool, { field, kind, message }] of Object.entries(tools)) {
      const subject = describeSubject({ server, tool, side: field === 'inputSchema' ? 'input' : 'output' });
      if (kind === 'depth') {
        failures.push(`${where}: ${subject}: ${message}; it cannot be represented`);
        continue;
      }
      warnings.push(`${subject}: ${message}; the tool's input and output widened to unknown`);
      catalogue[server] ??= {};
      catalogue[server][tool] = { name: tool, serverName: server } as MCPToolDefinition;
    }
  }
  return { failures, warnings };
}

type Detail = { httpStatus?: unknown; code?: unknown } | undefined;

/** A status or code as facts the generator can vouch for; anything else says nothing. */
export function describeDiscoveryError(detail: Detail): string {
  const status = typeof detail?.httpStatus === 'number' ? detail.httpStatus : undefined;
  const rawCode = detail?.code;
  const code =
    typeof rawCode === 'number' || (typeof rawCode === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(rawCode))
      ? rawCode
      : undefined;
  if (status === 401 || status === 403) return `missing or rejected authentication (HTTP ${status})`;
  const facts = [status !== undefined ? `HTTP ${status}` : '', code !== undefined ? `code ${code}` : ''];
  const shown = facts.filter(Boolean).join(', ');
  const what = code === 'REQUEST_TIMEOUT' ? 'tool discovery timed out' : 'tool discovery failed';
  return shown ? `${what} (${shown})` : what;
}

export async function discover(
  selected: SelectedClient,
): Promise<{ catalogue?: Catalogue; failures: string[]; warnings: string[] }> {
  const { client, where } = selected;
  let result: Awaited<ReturnType<GeneratorClient['listToolDefinitionsWithErrors']>>;
  try {
    result = await client.listToolDefinitionsWithErrors();
  } catch {
    return { failures: [`${where}: tool discovery failed`], warnings: [] };
  }
  const details = result.errorDetails ?? {};
  const failed = new Set([...Object.keys(result.errors ?? {}), ...Object.keys(details)]);
  const failures = [...failed]
    .sort()
    .map((server) => `${where}: server '${printable(server)}': ${describeDiscoveryError(details[server])}`);
  if (failures.length > 0) return { failures, warnings: [] };
  const catalogue = result.definitions;
  const verdicts = budgetVerdicts(client, where, catalogue);
  return verdicts.failures.length > 0
    ? { failures: verdicts.failures, warnings: verdicts.warnings }
    : { catalogue, failures: [], warnings: verdicts.warnings };
}
