/**
 * The HTTP fuzz in `npm test` (bench/fuzz.ts is the long run): seeded mutated requests (JSON-RPC
 * bodies of both eras, headers, request targets, framing) over raw sockets to one MCPServer in a
 * child process, served by startHTTP with sessions and serverless, startSSE and startHonoSSE, each
 * wired as the README shows. Properties: the process never exits, nothing answers 5xx, every
 * request is answered or closed within the deadline, RSS stays bounded, and every listener still
 * serves a well-formed tools/call afterwards. A failure lists the request bytes; the same seed
 * regenerates the same cases.
 */
import { createHash } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { FUZZ_TARGETS, fuzzCases, renderCase } from '../fixtures/fuzz-requests.js';
import { formatFuzzReport, fuzzViolations, runFuzz } from '../fixtures/fuzz-runner.js';
import { killWiredServers } from '../helpers.js';

const SEED = 20260728;

afterAll(killWiredServers);

/** One digest per case: what would go on the wire, with fixed live values. */
function digests(seed: number, count: number): string[] {
  return [...fuzzCases(seed, count)].map((fuzz) =>
    createHash('sha256')
      .update(Buffer.concat(renderCase(fuzz, { port: 1, session: 's' }).chunks))
      .digest('hex'),
  );
}

it('a seed always yields the same cases, so a failure can be replayed', () => {
  const first = digests(SEED, 300);
  expect(digests(SEED, 300)).toEqual(first);
  expect(digests(SEED + 1, 300)).not.toEqual(first);
});

it('1,500 mutated requests to startHTTP (sessions, serverless), startSSE and startHonoSSE: no exit, no 5xx, no hang, bounded RSS, still serving', async () => {
  const report = await runFuzz({
    messages: 1500,
    seed: SEED,
    // Small, so the stalled bodies among the cases are answered (408) well within the deadline.
    limits: { bodyTimeoutMs: 1500 },
    deadlineMs: 10_000,
  });
  expect(fuzzViolations(report, 256 * 2 ** 20), formatFuzzReport(report)).toEqual([]);
  // The run reached every listener and provoked the answers it is built to provoke.
  for (const target of FUZZ_TARGETS) expect(report.sent[target]).toBeGreaterThan(250);
  expect(report.messages).toBe(1500);
  for (const target of FUZZ_TARGETS) expect(report.classes[target]['2xx']).toBeGreaterThan(20);
  for (const status of ['400', '403', '404', '413']) expect(report.codes[status]).toBeGreaterThan(0);
}, 120_000);
