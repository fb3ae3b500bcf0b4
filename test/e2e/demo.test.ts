/** Runs `examples/demo.ts` as a child process and checks its summary and its clean exit. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The demo's own hard timeout is 20 s; kill it a little after that. */
const KILL_AFTER_MS = 25_000;

interface DemoRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runDemo(): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: KILL_AFTER_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('npm run demo', () => {
  let run: DemoRun;

  beforeAll(async () => {
    run = await runDemo();
  }, KILL_AFTER_MS + 5_000);

  /** The summary line matching `pattern`, with the whole output in the failure message. */
  function expectLine(pattern: RegExp): void {
    expect(run.stdout, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toMatch(pattern);
  }

  it('exits 0 by itself, without errors', () => {
    const output = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect({ code: run.code, signal: run.signal }, output).toEqual({ code: 0, signal: null });
    expect(run.stderr, output).not.toMatch(/demo|error/i);
  });

  it('connects a 2026-07-28 client and a legacy-pinned client to the same endpoint', () => {
    expectLine(/^server\s+Demo Kitchen 1\.0\.0 \(MCPServer\.startHTTP\) at http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    expectLine(/^clients\s+auto\s+server\/discover -> era modern, protocol 2026-07-28$/m);
    expectLine(/^\s+legacy\s+initialize -> era legacy, protocol 2025-\d\d-\d\d, session \w{8}…$/m);
  });

  it('calls the tools: structured output, progress and logs, elicitation', () => {
    expectLine(/^tools\s+5 listed: getWeather, prepIngredients, bookTable, ask_concierge, run_quote$/m);
    expectLine(
      /^ {2}getWeather\s+structuredContent \{"city":"Lisbon","tempC":24,"sky":"sunny","terraceOpen":true\}$/m,
    );
    expectLine(/^ {2}prepIngredients\s+progress 1\/3 rice, 2\/3 mushrooms, 3\/3 parmesan$/m);
    expectLine(
      /^\s+log\s+info \{"message":"prepping risotto","ingredients":3\} \| debug "risotto ready for the pass"$/m,
    );
    expectLine(/^ {2}bookTable\s+elicitation "Who is the table at 20:00 for\?"$/m);
    expectLine(/^\s+wire\s+tools\/call -> tools\/call \+ inputResponses /m);
    expectLine(/^\s+result\s+"table for 2 at 20:00 booked for Ada"$/m);
  });

  it('asks the agent and runs the workflow', () => {
    expectLine(
      /^agent\s+ask_concierge -> "For \\"Any table free tonight\?\\" I recommend the window table at 20:00\."$/m,
    );
    expectLine(
      /^workflow\s+run_quote -> structuredContent \{"dishes":3,"subtotal":37,"service":3\.7,"total":40\.7\}$/m,
    );
  });

  it('lists and reads resources, lists templates and completes an argument', () => {
    expectLine(
      /^resources\s+2 listed: kitchen:\/\/menu\/today \(text\/markdown\), kitchen:\/\/logo\.png \(image\/png\)$/m,
    );
    expectLine(/^ {2}read text\s+kitchen:\/\/menu\/today -> "# Today\\n- risotto/m);
    expectLine(/^ {2}read blob\s+kitchen:\/\/logo\.png -> 70 bytes image\/png, PNG signature ok$/m);
    expectLine(/^ {2}templates\s+kitchen:\/\/dishes\/\{dish\} \(Dish card\)$/m);
    expectLine(/^ {2}complete\s+\{dish\} "r" -> risotto, ribs, ramen$/m);
    expectLine(/^ {2}read template\s+kitchen:\/\/dishes\/risotto -> "Mushroom risotto, parmesan, thyme\."$/m);
  });

  it('lists versioned prompts, completes and gets them', () => {
    expectLine(/^prompts\s+2 listed: plan-dinner@v1, plan-dinner@v2$/m);
    expectLine(/^ {2}complete\s+\{guests\} "1" -> 12$/m);
    expectLine(/^ {2}get v1\s+plan-dinner@v1 \{guests: 4\} -> "Plan a three-course dinner for 4 guests\."$/m);
    expectLine(
      /^ {2}get v2\s+plan-dinner@v2 \{guests: 4\} -> "Plan a three-course dinner for 4 guests, with a wine pairing/m,
    );
  });

  it('delivers the tools list_changed of toolActions.add() to both clients', () => {
    expectLine(/^list_changed\s+server\.toolActions\.add\(\{ todaysSpecial \}\)$/m);
    expectLine(/^ {2}auto\s+tools list_changed via subscriptions\/listen -> 6 tools \(\+todaysSpecial\)$/m);
    expectLine(/^ {2}legacy\s+tools list_changed via session SSE stream -> 6 tools \(\+todaysSpecial\)$/m);
    expectLine(/^ {2}todaysSpecial\s+"mushroom risotto"$/m);
  });

  it('serves the legacy-pinned client, elicitation included', () => {
    expectLine(
      /^legacy client\s+getWeather -> structuredContent \{"city":"Oslo","tempC":3,"sky":"snow","terraceOpen":false\}$/m,
    );
    expectLine(/^\s+result\s+"table for 4 at 19:30 booked for Grace"$/m);
  });

  it('uses the same server through MCPClient: Mastra tools, an Agent, resources and prompts', () => {
    expectLine(/^MCPClient\s+12 Mastra tools from 2 servers, errors \{\}$/m);
    expectLine(
      /^ {2}getWeather\s+kitchen_getWeather -> \{"city":"Oslo","tempC":3,"sky":"snow","terraceOpen":false\}/m,
    );
    expectLine(/^ {2}progress\s+kitchen_prepIngredients -> progress\.onUpdate 1\/2, 2\/2$/m);
    expectLine(
      /^ {2}inputRequests\s+bookTable answered by the handler -> "table for 3 at 21:00 booked for Lin"$/m,
    );
    expectLine(/^ {2}Agent\s+called kitchen_getWeather -> "The tool said: .*Lisbon.*terraceOpen\\":true/m);
    expectLine(/^ {2}resources\s+kitchenLegacy: kitchen:\/\/menu\/today, kitchen:\/\/logo\.png$/m);
    expectLine(
      /^ {2}prompts\.get\s+plan-dinner@v2 -> "Plan a three-course dinner for 2 guests, with a wine pairing/m,
    );
    expectLine(
      /^closed\s+MCPClient, legacy client \(session deleted\), 2026-07-28 client, MCPServer, HTTP server$/m,
    );
  });
});
