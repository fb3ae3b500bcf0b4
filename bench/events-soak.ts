/**
 * Events soak (MCP Events, SEP-3415): at least 10,000 occurrences through push, poll and webhook
 * subscriptions of two MCPClients while connections are cut, clients reconnect, the server
 * restarts on the same port over the same store and the webhook endpoint fails deliveries (see
 * test/fixtures/events-soak.ts). Every subscription must receive every occurrence at least once,
 * with no duplicate reaching its loop and no gap reported; the counts are printed as markdown and
 * the process exits with 1 on a violation. The server runs in this process (its restart is a new
 * MCPServer behind the same listener port).
 *
 *   npm run soak:events   (flags: --occurrences <n>, --burst <n>, --fault-every <bursts>,
 *                          --fail-rate <share of webhook deliveries>, --seed <n>, --drain-timeout <ms>)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { formatSoakReport, runEventsSoak, soakViolations } from '../test/fixtures/events-soak.js';

const { values: flags } = parseArgs({
  options: {
    occurrences: { type: 'string', default: '10000' },
    burst: { type: 'string', default: '50' },
    'fault-every': { type: 'string', default: '4' },
    'fail-rate': { type: 'string', default: '0.02' },
    seed: { type: 'string', default: '1' },
    'drain-timeout': { type: 'string', default: '180000' },
  },
});

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(
  `mastra-mcp events soak ${new Date().toISOString()}: node ${process.version}, load ${load()}, ` +
    `${flags.occurrences} occurrences, bursts of ${flags.burst}, a fault every ${flags['fault-every']} bursts, seed ${flags.seed}`,
);
const report = await runEventsSoak({
  occurrences: Number(flags.occurrences),
  burst: Number(flags.burst),
  faultEvery: Number(flags['fault-every']),
  webhookFailRate: Number(flags['fail-rate']),
  seed: Number(flags.seed),
  drainTimeoutMs: Number(flags['drain-timeout']),
  progress: (line) => console.error(`  ${line}`),
});
console.log(`\n${formatSoakReport(report)}\n`);
const violations = soakViolations(report);
console.log(`load at the end ${load()}`);
if (violations.length > 0) {
  console.log(`\nVIOLATIONS (${violations.length}):\n${violations.map((line) => `- ${line}`).join('\n')}`);
  process.exit(1);
}
console.log('\nno violation: every occurrence reached every subscription, no duplicate escaped, no gap');
process.exit(0);
