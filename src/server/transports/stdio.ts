/**
 * stdio for anything that builds protocol instances (MCPServer, the client's server proxies): the
 * SDK's `serveStdio` picks the era from the first message, and the one instance it pins is kept
 * in `connections` (so notifications reach it) until it closes.
 */
import type { Transport } from '@modelcontextprotocol/server';
import type { StdioServerHandle, StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { lazyModule } from '../../shared/lazy-module.js';
import type { Telemetry } from '../../shared/telemetry/telemetry.js';
import type { Connections } from '../connections.js';
import { boundErrorsSent } from '../error-echo.js';
import { type InstanceProfile, stdioProfile } from '../instance-profile.js';
import type { ProtocolInstance } from '../protocol-server.js';
import type { TaskListenHost } from '../tasks/listen.js';
import { ListenTelemetryWire } from './listen-telemetry-stdio.js';
import { TaskListenWire } from './task-listen-stdio.js';

/** The SDK's stdio server loads with the first `startStdio()`, not with the package. */
const loadStdio = lazyModule(() => import('./sdk-stdio-server.js'));

export interface StdioServing {
  handle: StdioServerHandle;
  transport: StdioServerTransport;
}

export type ServeTrackedStdio = (
  createInstance: (profile: InstanceProfile) => ProtocolInstance,
  connections: Connections,
  onerror: (error: Error) => void,
  /** The server's tasks, when it serves the Tasks extension: listen subscriptions may follow tasks. */
  tasks?: TaskListenHost,
  /** Its telemetry, which the listen requests the SDK answers itself are traced by. */
  telemetry?: Telemetry,
) => StdioServing;

/**
 * Serves one connection over `transport` through the SDK's `serveStdio`, the instance it pins
 * tracked in `connections` until it closes. Stdio passes its own transport; the unit tests' in-process
 * link (test/support/in-process.ts) passes one end of the SDK's in-memory pair.
 */
export function serveTracked(
  serve: typeof serveStdio,
  transport: Transport,
  ...[createInstance, connections, onerror, tasks, telemetry]: Parameters<ServeTrackedStdio>
): StdioServerHandle {
  // serveStdio answers some refusals itself (an unsupported protocol version), not through a Server.
  const bounded = boundErrorsSent(transport);
  const traced = telemetry?.enabled ? new ListenTelemetryWire(bounded, telemetry) : bounded;
  const wire = tasks ? new TaskListenWire(traced, tasks) : traced;
  return serve(
    ({ era }) => {
      const instance = createInstance(stdioProfile(era));
      instance.servesStdio?.();
      const untrack = connections.track({ ...instance, era });
      const previous = instance.server.onclose;
      instance.server.onclose = () => {
        previous?.();
        untrack();
      };
      return instance.server;
    },
    { legacy: 'serve', transport: wire, onerror },
  );
}

/**
 * Loads the SDK's stdio server, then gives the function that starts serving: a caller checks that
 * it is not serving yet after the load, so two concurrent starts cannot both pass the check.
 */
export async function loadTrackedStdio(): Promise<ServeTrackedStdio> {
  const { StdioServerTransport, serveStdio } = await loadStdio();
  return (...serving) => {
    const transport = new StdioServerTransport();
    return { handle: serveTracked(serveStdio, transport, ...serving), transport };
  };
}
