/** Loopback listeners for tests: every test server binds 127.0.0.1 on a port the system picks. */
import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface LocalListener {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops listening; an HTTP server's open connections are closed first so this does not wait on keep-alive. */
  close(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1 at a free port. */
export async function listenLocal(server: net.Server | http.Server): Promise<LocalListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port that was free a moment ago (a listener opened on it and closed again). */
export async function freePort(): Promise<number> {
  const probe = await listenLocal(net.createServer());
  await probe.close();
  return probe.port;
}
