/**
 * Tool discovery for one client: `listToolDefinitionsWithErrors()` lists tools and never calls
 * them. A server that fails is reported by name with its HTTP status or error code only: the
 * error text can quote URLs with credentials or a transport's internals, so it is not printed.
 */
import { printable } from './diagnostics.js';
import type { GeneratorClient, SelectedClient } from './load-clients.js';
import type { Catalogue } from './render.js';

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
): Promise<{ catalogue?: Catalogue; failures: string[] }> {
  const { client, where } = selected;
  let result: Awaited<ReturnType<GeneratorClient['listToolDefinitionsWithErrors']>>;
  try {
    result = await client.listToolDefinitionsWithErrors();
  } catch {
    return { failures: [`${where}: tool discovery failed`] };
  }
  const details = result.errorDetails ?? {};
  const failed = new Set([...Object.keys(result.errors ?? {}), ...Object.keys(details)]);
  const failures = [...failed]
    .sort()
    .map((server) => `${where}: server '${printable(server)}': ${describeDiscoveryError(details[server])}`);
  return failures.length > 0 ? { failures } : { catalogue: result.definitions, failures };
}
