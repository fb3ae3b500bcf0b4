/**
 * `npm run demo -- --apps`: serves the MCP Apps example (serve.ts) and prints the host page's URL
 * for a person to open in a browser on this machine; Ctrl-C (or SIGTERM) closes everything and
 * the process exits by itself. Needs no network and no API keys.
 */
import { startAppsExample } from './serve.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, stop);
  });
}

export async function runAppsDemo(): Promise<void> {
  const stopped = stopSignal();
  const example = await startAppsExample();
  console.log('MCP Apps example: the Calculator MCPServer with its ui://calculator/main view');
  console.log(`  host page  ${example.hostUrl.href}  <- open this in a browser`);
  console.log(`  MCP        ${example.mcpUrl.href}`);
  console.log(`  sandbox    ${example.sandboxUrl.href} (the view's proxy, another origin)`);
  console.log('Ctrl-C stops the servers.');
  const signal = await stopped;
  await example.close();
  console.log(`stopped on ${signal}: servers closed`);
}
