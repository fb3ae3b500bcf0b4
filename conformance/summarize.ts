/**
 * Reads the `checks.json` files the conformance suite wrote (one folder per scenario) and prints
 * one line per scenario plus a summary.
 *
 * Both modes take run labels, `scenario@revision` or a bare scenario name, and read expected
 * failures as entries naming a run (`scenario@revision`) or every run of a scenario (`scenario`).
 *
 * Server mode (default): a run fails when any of its checks has status FAILURE (WARNING and INFO
 * checks do not fail it, as in the suite's own server summary). Expected failures come from the
 * `server:` list.
 *
 * Client mode (`--client`): each run's folder also holds `runner.exit` (the suite runner's exit
 * code) and `runner.log`. A run
 * fails when the runner failed it, which is the suite's own client verdict: a FAILURE or WARNING
 * check, the client exiting non-zero (unless the scenario expects the client to give up) or timing
 * out; or when no checks.json was written. A run whose checks were all SKIPPED is reported as not
 * exercised, neither passed nor failed. Expected failures come from the `client:` list.
 *
 * Usage: summarize.ts [--client] <results-dir> <expected-failures.yml> <scenario-or-label>...
 * Exit code: 1 when a scenario (run) failed that the expected-failures file does not list, else 0.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
  /** The folder holding checks.json (and, for client runs, the client's stdout.txt and stderr.txt). */
  dir?: string;
}

const argv = process.argv.slice(2);
const clientMode = argv[0] === '--client';
const [resultsDir, expectedFile, ...scenarios] = clientMode ? argv.slice(1) : argv;
if (!resultsDir || !expectedFile || scenarios.length === 0) {
  console.error(
    'usage: summarize.ts [--client] <results-dir> <expected-failures.yml> <scenario-or-label>...',
  );
  process.exit(2);
}

/** One list (`server:` or `client:`) of the expected-failures YAML: `  - scenario-name  # reason`. */
function readExpected(file: string, section: 'server' | 'client'): Set<string> {
  const expected = new Set<string>();
  if (!existsSync(file)) return expected;
  const header = new RegExp(`^${section}:\\s*(#.*)?$`);
  let inSection = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inSection = header.test(line);
    const item = /^\s+-\s+([\w./@-]+)/.exec(line);
    if (inSection && item?.[1]) expected.add(item[1]);
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
    return { scenario, checks: JSON.parse(readFileSync(file, 'utf8')) as Check[], dir: dirname(file) };
  } catch (error) {
    return { scenario, checks: [], missing: `unreadable checks.json: ${(error as Error).message}` };
  }
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** Client mode: why the suite's runner failed a run, beyond its failed and warning checks. */
function runnerVerdict(outcome: Outcome): { failed: boolean; reasons: string[]; skipped: boolean } {
  const dir = join(resultsDir as string, outcome.scenario);
  const exit = readText(join(dir, 'runner.exit')).trim();
  const log = readText(join(dir, 'runner.log'));
  const reasons: string[] = [];
  if (/^SKIPPED: scenario/m.test(log)) return { failed: false, reasons: [], skipped: true };
  const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(log);
  if (exited) reasons.push(`the client exited with code ${exited[1]}`);
  if (/CLIENT TIMED OUT/.test(log)) reasons.push('the client timed out');
  if (/timed out after \d+s/.test(log)) reasons.push('the run timed out');
  const clientError = outcome.dir
    ? /^\[client\] FAILED: (.*)$/m.exec(readText(join(outcome.dir, 'stderr.txt')))
    : null;
  if (clientError?.[1]) reasons.push(`client error: ${clientError[1].slice(0, 400)}`);
  if (exit === '') reasons.push('no runner exit code was recorded');
  else if (exit !== '0' && reasons.length === 0) reasons.push(`the suite's runner exited with code ${exit}`);
  return { failed: exit !== '0', reasons, skipped: false };
}

const expected = readExpected(expectedFile, clientMode ? 'client' : 'server');
const isListed = (label: string) => expected.has(label) || expected.has(label.split('@')[0] as string);
const outcomes = scenarios.map(load);
let passed = 0;
let failed = 0;
let notExercised = 0;
let checksPassed = 0;
let checksFailed = 0;
let withWarnings = 0;
const unexpected: string[] = [];
const expectedFailed: string[] = [];
const stale: string[] = [];

for (const outcome of outcomes) {
  const { scenario, checks, missing } = outcome;
  const failures = checks.filter((check) => check.status === 'FAILURE');
  const warnings = checks.filter((check) => check.status === 'WARNING');
  const successes = checks.filter((check) => check.status === 'SUCCESS').length;
  checksFailed += failures.length + (missing ? 1 : 0);
  checksPassed += successes;
  if (warnings.length > 0) withWarnings++;
  const verdict = clientMode ? runnerVerdict(outcome) : { failed: false, reasons: [], skipped: false };
  const isFailure = failures.length > 0 || missing !== undefined || verdict.failed;
  const unexercised =
    !isFailure && (verdict.skipped || (clientMode && successes === 0 && warnings.length === 0));
  const isExpected = isListed(scenario);
  let label: string;
  if (isFailure) {
    failed++;
    label = isExpected ? 'XFAIL' : 'FAIL ';
    (isExpected ? expectedFailed : unexpected).push(scenario);
  } else if (unexercised) {
    notExercised++;
    label = 'N/A  ';
  } else {
    passed++;
    label = isExpected ? 'XPASS' : 'PASS ';
    if (isExpected) stale.push(scenario);
  }
  const counts = `checks: ${successes} passed, ${failures.length} failed, ${warnings.length} warnings`;
  console.log(`${label} ${scenario} (${counts})`);
  if (missing) console.log(`        ${missing}`);
  if (verdict.skipped) console.log('        the suite skipped it (not applicable at this revision)');
  else if (unexercised) console.log('        not exercised: every check was SKIPPED');
  else if (!isFailure && successes === 0)
    console.log('        note: no check succeeded; the scenario only reported INFO/WARNING');
  for (const check of [...failures, ...warnings]) {
    console.log(`        ${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? ''}`);
  }
  if (isFailure) for (const reason of verdict.reasons) console.log(`        ${reason}`);
}

const unit = clientMode ? 'Client scenario runs' : 'Server scenario runs';
console.log('');
if (expectedFailed.length > 0) console.log(`Expected failures: ${expectedFailed.join(', ')}`);
if (stale.length > 0) {
  console.log(`Listed as expected failures but passed (remove from ${expectedFile}): ${stale.join(', ')}`);
}
if (unexpected.length > 0) console.log(`UNEXPECTED failures: ${unexpected.join(', ')}`);
console.log(`Checks: ${checksPassed} passed, ${checksFailed} failed`);
console.log(
  `${unit}: ${passed} of ${outcomes.length} passed, ${failed} failed ` +
    `(${expectedFailed.length} expected, ${unexpected.length} unexpected)` +
    (clientMode ? `, ${notExercised} not exercised` : '') +
    `, ${withWarnings} with warnings`,
);
process.exit(unexpected.length > 0 ? 1 : 0);
