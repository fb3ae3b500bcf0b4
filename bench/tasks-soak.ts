/**
 * Tasks soak (MCP Tasks, SEP-2663): 1,000 tasks across three MCPServer instances (each its own
 * process) on one Redis task store, while one instance is SIGKILLed and another started (see
 * test/fixtures/tasks-soak.ts). Every task must reach a terminal state that any instance reports,
 * none lost, none handed out twice; prints the counts and how long after a task finished the
 * poller saw it, and exits with 1 on a violation.
 *
 *   npm run soak:tasks   (flags: --tasks <n>, --concurrency <n>, --poll <ms>, --drain-timeout <ms>)
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { runTasksSoak, tasksSoakViolations } from '../test/fixtures/tasks-soak.js';

const { values: flags } = parseArgs({
  options: {
    tasks: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '25' },
    poll: { type: 'string', default: '50' },
    'drain-timeout': { type: 'string', default: '180000' },
  },
});

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const tasks = Number(flags.tasks);
console.log(
  `tasks soak: ${tasks} tasks, 3 instances on Redis, one SIGKILLed and replaced (load before: ${load()})`,
);
const report = await runTasksSoak({
  tasks,
  concurrency: Number(flags.concurrency),
  pollMs: Number(flags.poll),
  drainTimeoutMs: Number(flags['drain-timeout']),
});
console.log(
  '| created | completed | failed | cancelled | lost | duplicated | answered by another instance | seen after completion (p50 / p99 / max) | duration |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---|---:|');
const { p50, p99, max } = report.seenAfterMs;
console.log(
  `| ${report.created} | ${report.completed} | ${report.failed} | ${report.cancelled} | ${report.lost} | ${report.duplicated} | ${report.answeredElsewhere} | ${p50} / ${p99} / ${max} ms | ${(report.durationMs / 1000).toFixed(1)} s |`,
);
console.log(`load after: ${load()}`);
for (const error of report.errors) console.log(`error: ${error}`);
const violations = tasksSoakViolations(report, tasks);
for (const violation of violations) console.log(`VIOLATION: ${violation}`);
process.exit(violations.length > 0 ? 1 : 0);
