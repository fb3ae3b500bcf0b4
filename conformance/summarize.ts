/**
 * Reads the `checks.json` files the conformance suite wrote (one folder per scenario) and prints
 * one line per scenario plus a summary. A scenario fails when any of its checks has status
 * FAILURE (WARNING and INFO checks do not fail it, as in the suite's own summary).
 *
 * Usage: summarize.ts <results-dir> <expected-failures.yml> <scenario>...
 * Exit code: 1 when a scenario failed that the expected-failures file does not list, else 0.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  description?: string;
  errorMessage?: string;
}

interface Outcome {
  scenario: string;
  checks: Check[];
  /** Set when the scenario produced no checks.json (runner crash or timeout). */
  missing?: string;
}

const [resultsDir, expectedFile, ...scenarios] = process.argv.slice(2);
if (!resultsDir || !expectedFile || scenarios.length === 0) {
  console.error('usage: summarize.ts <results-dir> <expected-failures.yml> <scenario>...');
  process.exit(2);
}

/** The `server:` list of the suite's expected-failures YAML: `  - scenario-name  # reason`. */
function readExpected(file: string): Set<string> {
  const expected = new Set<string>();
  if (!existsSync(file)) return expected;
  let inServer = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inServer = /^server:\s*(#.*)?$/.test(line);
    const item = /^\s+-\s+([\w./-]+)/.exec(line);
    if (inServer && item?.[1]) expected.add(item[1]);
  }
  return expected;
}

function findChecks(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'checks.json') return path;
    if (entry.isDirectory()) {
      const found = findChecks(path);
      if (found) return found;
    }
  }
  return undefined;
}

function load(scenario: string): Outcome {
  const file = findChecks(join(resultsDir as string, scenario));
  if (!file) return { scenario, checks: [], missing: 'the runner wrote no checks.json (crash or timeout)' };
  try {
    return { scenario, checks: JSON.parse(readFileSync(file, 'utf8')) as Check[] };
  } catch (error) {
    return { scenario, checks: [], missing: `unreadable checks.json: ${(error as Error).message}` };
  }
}

const expected = readExpected(expectedFile);
const outcomes = scenarios.map(load);
let passed = 0;
let failed = 0;
let checksPassed = 0;
let checksFailed = 0;
let withWarnings = 0;
const unexpected: string[] = [];
const expectedFailed: string[] = [];
const stale: string[] = [];

for (const { scenario, checks, missing } of outcomes) {
  const failures = checks.filter((check) => check.status === 'FAILURE');
  const warnings = checks.filter((check) => check.status === 'WARNING');
  checksFailed += failures.length + (missing ? 1 : 0);
  const isFailure = failures.length > 0 || missing !== undefined;
  const isExpected = expected.has(scenario);
  if (warnings.length > 0) withWarnings++;
  checksPassed += checks.filter((check) => check.status === 'SUCCESS').length;
  let label: string;
  if (isFailure) {
    failed++;
    label = isExpected ? 'XFAIL' : 'FAIL ';
    (isExpected ? expectedFailed : unexpected).push(scenario);
  } else {
    passed++;
    label = isExpected ? 'XPASS' : 'PASS ';
    if (isExpected) stale.push(scenario);
  }
  const successes = checks.filter((check) => check.status === 'SUCCESS').length;
  const counts = `checks: ${successes} passed, ${failures.length} failed, ${warnings.length} warnings`;
  console.log(`${label} ${scenario} (${counts})`);
  if (missing) console.log(`        ${missing}`);
  if (!isFailure && successes === 0)
    console.log('        note: no check succeeded; the scenario only reported INFO/WARNING');
  for (const check of [...failures, ...warnings]) {
    console.log(`        ${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
  }
}

console.log('');
if (expectedFailed.length > 0) console.log(`Expected failures: ${expectedFailed.join(', ')}`);
if (stale.length > 0) {
  console.log(`Listed as expected failures but passed (remove from ${expectedFile}): ${stale.join(', ')}`);
}
if (unexpected.length > 0) console.log(`UNEXPECTED failures: ${unexpected.join(', ')}`);
console.log(`Checks: ${checksPassed} passed, ${checksFailed} failed`);
console.log(
  `Scenarios: ${passed} of ${outcomes.length} passed, ${failed} failed ` +
    `(${expectedFailed.length} expected, ${unexpected.length} unexpected), ${withWarnings} with warnings`,
);
process.exit(unexpected.length > 0 ? 1 : 0);
