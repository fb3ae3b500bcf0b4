/**
 * The long HTTP fuzz: at least 30,000 mutated requests (bodies of both protocol eras, headers,
 * request targets, framing; test/fixtures/fuzz-requests.ts) over raw sockets to one MCPServer in a
 * child process, served by `startHTTP` (sessions and serverless), `startSSE` and `startHonoSSE`
 * (test/fixtures/readme-wired-server.ts). Prints messages per target, answers by status class, process
 * exits, hangs and the child's peak RSS as markdown, then every violation; exits 1 when there is
 * one. The seed is fixed unless `--random-seed`; it is printed, so any run can be repeated.
 * The child runs with `limits.bodyTimeoutMs` 2 s (`--body-timeout`), so the stalled bodies among
 * the cases are answered well within the hang deadline; every other limit keeps its default.
 *
 *   npm run fuzz   (flags: --messages <n>, --seed <n>, --random-seed, --concurrency <n>,
 *                   --deadline <ms>, --body-timeout <ms>, --max-rss-growth <MiB>,
 *                   --max-exits <n>: stop after that many child exits, default 10,
 *                   --only <i,j,...>: replay those cases of the seed alone, printing their bytes)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { formatFuzzReport, fuzzViolations, runFuzz } from '../test/fixtures/fuzz-runner.js';
import { killWiredServers } from '../test/helpers.js';

const { values: flags } = parseArgs({
  options: {
    messages: { type: 'string', default: '30000' },
    seed: { type: 'string', default: '20260728' },
    'random-seed': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '8' },
    deadline: { type: 'string', default: '10000' },
    'body-timeout': { type: 'string', default: '2000' },
    'max-rss-growth': { type: 'string', default: '512' },
    'max-exits': { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killWiredServers();
    process.exit(130);
  });
}

const seed = flags['random-seed'] ? Math.floor(Math.random() * 2 ** 31) : Number(flags.seed);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(
  `mastra-mcp HTTP fuzz ${new Date().toISOString()}: node ${process.version}, load ${load()}, ` +
    `${flags.messages} messages, seed ${seed} (repeat with --seed ${seed}), concurrency ${flags.concurrency}`,
);
const report = await runFuzz({
  messages: Number(flags.messages),
  seed,
  concurrency: Number(flags.concurrency),
  deadlineMs: Number(flags.deadline),
  limits: { bodyTimeoutMs: Number(flags['body-timeout']) },
  maxExits: Number(flags['max-exits']),
  ...(flags.only ? { only: flags.only.split(',').map(Number) } : {}),
  progress: (line) => console.error(`  ${line}`),
});
console.log(`\n${formatFuzzReport(report)}\n`);
const violations = fuzzViolations(report, Number(flags['max-rss-growth']) * 2 ** 20);
console.log(`load at the end ${load()}`);
if (violations.length > 0) {
  console.log(
    `\nVIOLATIONS (${violations.length} listed):\n${violations.map((line) => `- ${line}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('\nno violation: no process exit, no 5xx, no hang, every listener still serving');
process.exit(0);
