/**
 * Process hooks: on SIGINT, SIGTERM or SIGHUP every client that opted in disconnects and the
 * process ends; on beforeExit they disconnect. Listeners are installed once per process, the first
 * time an opted-in client connects, and stay until the process exits (the v2 MCPClient reference's rule).
 * `beforeExit` can fire because an idle stdio connection does not hold the process open (see
 * activity.ts); the disconnect it starts does, until its children are gone. It stays installed
 * (`on`, not `once`): a process that goes on and idles again is cleaned up again, and with no
 * client left the hook schedules nothing, so the process ends.
 */
const clients = new Set<{ disconnect(): Promise<void> }>();
let installed = false;

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

async function disconnectAll(): Promise<void> {
  await Promise.allSettled([...clients].map((client) => client.disconnect()));
}

export function registerForProcessHooks(client: { disconnect(): Promise<void> }): void {
  clients.add(client);
  if (installed) return;
  installed = true;
  for (const signal of Object.keys(SIGNAL_EXIT_CODES)) {
    process.once(signal, () => {
      void disconnectAll().finally(() => process.exit(SIGNAL_EXIT_CODES[signal]));
    });
  }
  process.on('beforeExit', () => {
    void disconnectAll();
  });
}

export function unregisterFromProcessHooks(client: { disconnect(): Promise<void> }): void {
  clients.delete(client);
}
