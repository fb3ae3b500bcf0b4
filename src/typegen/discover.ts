/**
 * Tool discovery for one client: `listToolDefinitionsWithErrors()` lists tools and never calls
 * them, each server within the `--timeout` when one is given, else within the client's own
 * timeouts. A server that fails is reported with the client's
 * message, which names it, its URL (without credentials or query) or command, and the cause
 * (connection refused, DNS, TLS, HTTP status, the process's exit); escaped and shortened.
 */
import type { MCPToolDefinition } from '../client/tools/definition.js';
import { describeSubject, printable } from './diagnostics.js';
import type { GeneratorClient, SelectedClient } from './load-clients.js';
import type { Catalogue, SkillCatalogue } from './render.js';

/** What MCPClient reports about tools its listing left out for exceeding a schema budget. */
type SkippedTools = Record<
  string,
  Record<string, { field: 'inputSchema' | 'outputSchema'; kind: 'depth' | 'nodes' | 'raw'; message: string }>
>;
const SKIPPED_TOOLS = Symbol.for('mastra-mcp.skippedTools');
const SERVER_ERAS = Symbol.for('mastra-mcp.serverEras');

function skippedBy(client: GeneratorClient): SkippedTools {
  const read = (client as { [SKIPPED_TOOLS]?: () => SkippedTools })[SKIPPED_TOOLS];
  return typeof read === 'function' ? read.call(client) : {};
}

/** The servers that negotiated a 2025 revision (read while the client is still connected). */
function legacyServersOf(client: GeneratorClient): Set<string> {
  const read = (client as { [SERVER_ERAS]?: () => Record<string, string | undefined> })[SERVER_ERAS];
  const eras = typeof read === 'function' ? read.call(client) : {};
  return new Set(Object.keys(eras).filter((server) => eras[server] === 'legacy'));
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

type Detail = { message?: unknown; httpStatus?: unknown; code?: unknown } | undefined;

/** One failed server as one line; the generic words only when the client said nothing usable. */
export function describeDiscoveryError(server: string, detail: Detail): string {
  if (typeof detail?.message === 'string' && detail.message.trim() !== '') {
    // The deadline is the command's option here, not the library's.
    return printable(detail.message.replace('(perServerTimeoutMs)', '(--timeout)'), 400);
  }
  const status = typeof detail?.httpStatus === 'number' ? ` (HTTP ${detail.httpStatus})` : '';
  return `server '${printable(server)}': tool discovery failed${status}`;
}

/** A client's `skills.listWithErrors()`, when it has one (MCPClient does). */
type SkillListing = {
  skills?: {
    listWithErrors(options?: { perServerTimeoutMs?: number }): Promise<{
      skills: Record<
        string,
        Array<{ uri: string; skill: { frontmatter: { name: string; description: string } } }>
      >;
      errors: Record<string, string>;
    }>;
  };
};

/**
 * The skills each server lists, for the generated types. Skills never fail generation: a server
 * whose listing fails is a warning, and its skills are left out.
 */
async function skillsOf(client: GeneratorClient, timeoutMs: number | undefined) {
  const skills: SkillCatalogue = {};
  const warnings: string[] = [];
  const list = (client as SkillListing).skills?.listWithErrors;
  if (typeof list !== 'function') return { skills, warnings };
  try {
    const result = await list.call(
      (client as SkillListing).skills,
      timeoutMs === undefined ? undefined : { perServerTimeoutMs: timeoutMs },
    );
    for (const [server, entries] of Object.entries(result.skills))
      if (entries.length > 0)
        skills[server] = Object.fromEntries(
          entries.map(({ uri, skill }) => [
            uri,
            { name: skill.frontmatter.name, description: skill.frontmatter.description },
          ]),
        );
    for (const [server, message] of Object.entries(result.errors))
      warnings.push(`server '${printable(server)}': its skills are left out: ${printable(message, 300)}`);
  } catch (error) {
    warnings.push(`skills are left out: ${printable(String(error), 300)}`);
  }
  return { skills, warnings };
}

export async function discover(
  selected: SelectedClient,
  timeoutMs: number | undefined,
): Promise<{
  catalogue?: Catalogue;
  legacyServers?: Set<string>;
  skills?: SkillCatalogue;
  failures: string[];
  warnings: string[];
}> {
  const { client, where } = selected;
  let result: Awaited<ReturnType<GeneratorClient['listToolDefinitionsWithErrors']>>;
  try {
    result = await client.listToolDefinitionsWithErrors(
      timeoutMs === undefined ? undefined : { perServerTimeoutMs: timeoutMs },
    );
  } catch (error) {
    return { failures: [`${where}: tool discovery failed: ${printable(String(error), 300)}`], warnings: [] };
  }
  const details = result.errorDetails ?? {};
  const failed = new Set([...Object.keys(result.errors ?? {}), ...Object.keys(details)]);
  const failures = [...failed]
    .sort()
    .map((server) => `${where}: ${describeDiscoveryError(server, details[server])}`);
  if (failures.length > 0) return { failures, warnings: [] };
  const catalogue = result.definitions;
  const verdicts = budgetVerdicts(client, where, catalogue);
  if (verdicts.failures.length > 0) return { failures: verdicts.failures, warnings: verdicts.warnings };
  const legacyServers = legacyServersOf(client);
  const { skills, warnings } = await skillsOf(client, timeoutMs);
  return { catalogue, legacyServers, skills, failures: [], warnings: [...verdicts.warnings, ...warnings] };
}
