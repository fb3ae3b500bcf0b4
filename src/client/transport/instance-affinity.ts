/**
 * Sticky `input_required` retries behind a load balancer. A server run as several instances names
 * the one that answered in the `Mcp-Instance-Id` response header; the suspended tool run that asked
 * for input waits in that instance's memory. Each client operation (one `ServerConnection.run`)
 * gets a slot remembering the last instance that answered it, and a request of that operation that
 * carries `params.requestState` (the SDK's retry of the same call) sends the header back, so a
 * balancer that routes by it reaches the holder. Other requests never send it, so they spread.
 * Slots are kept only once some server has named its instance (its connect's answer does, before
 * any call): until then none would be read, and on Node 20 the first `AsyncLocalStorage.run`
 * turns on promise hooks that every promise of the process pays for.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FetchLike } from '@modelcontextprotocol/client';
import { MCP_INSTANCE_ID_HEADER } from '../../shared/instance-header.js';

const operationSlot = new AsyncLocalStorage<{ instanceId?: string }>();
let instancesNamed = false;

/** Runs one client operation with its own memory of the instance that answered it. */
export function withInstanceAffinity<T>(operation: () => T): T {
  return instancesNamed ? operationSlot.run({}, operation) : operation();
}

function carriesRequestState(body: unknown): boolean {
  if (typeof body !== 'string' || !body.includes('"requestState"')) return false;
  try {
    const message = JSON.parse(body) as { params?: { requestState?: unknown } };
    return typeof message.params?.requestState === 'string';
  } catch {
    return false;
  }
}

export function instanceAffinityFetch(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    const slot = operationSlot.getStore();
    let sent = init;
    if (slot?.instanceId && carriesRequestState(init?.body)) {
      const headers = new Headers(init?.headers);
      headers.set(MCP_INSTANCE_ID_HEADER, slot.instanceId);
      sent = { ...init, headers };
    }
    const response = await fetch(url, sent);
    const answeredBy = response.headers.get(MCP_INSTANCE_ID_HEADER);
    if (answeredBy) {
      instancesNamed = true;
      if (slot) slot.instanceId = answeredBy;
    }
    return response;
  };
}
