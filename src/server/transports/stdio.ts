/**
 * stdio for anything that builds protocol instances (MCPServer, the client's server proxies): the
 * SDK's `serveStdio` picks the era from the first message, and the one instance it pins is kept
 * in `connections` (so notifications reach it) until it closes.
 */
import { type StdioServerHandle, StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Connections } from '../connections.js';
import type { ProtocolInstance } from '../protocol-server.js';

export interface StdioServing {
  handle: StdioServerHandle;
  transport: StdioServerTransport;
}

export function serveTrackedStdio(
  createInstance: (era: 'legacy' | 'modern') => ProtocolInstance,
  connections: Connections,
  onerror: (error: Error) => void,
): StdioServing {
  const transport = new StdioServerTransport();
  const handle = serveStdio(
    ({ era }) => {
      const instance = createInstance(era);
      const untrack = connections.track({ ...instance, era });
      const previous = instance.server.onclose;
      instance.server.onclose = () => {
        previous?.();
        untrack();
      };
      return instance.server;
    },
    { legacy: 'serve', transport, onerror },
  );
  return { handle, transport };
}
