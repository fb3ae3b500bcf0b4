/**
 * The MCP Inspector's CLI (`mcp-inspector --cli`) as a client process: one run per call, its JSON
 * output parsed. scripts/provision-inspector.sh installs the pinned version under .cache/ (npm test
 * runs it first); its state goes to a temporary HOME, never the user's.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(
  repo,
  '.cache/inspector-2.12.0/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

export interface InspectorRun {
  code: number;
  /** The CLI's one JSON object (`--format json`): `{ result }` or `{ error }`. */
  output: { result?: Record<string, unknown>; error?: { message?: string } };
  stderr: string;
}

const home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'));

/** Runs `mcp-inspector --cli --format json <args>`; a non-zero exit is a result, not an error. */
export function inspectorCli(args: string[]): Promise<InspectorRun> {
  if (!existsSync(BIN)) {
    throw new Error(`the MCP Inspector is not installed at ${BIN}: run bash scripts/provision-inspector.sh`);
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, '--cli', '--format', 'json', ...args],
      { env: { ...process.env, HOME: home }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? -1) : 0,
          output: stdout.trim() ? JSON.parse(stdout.trim().split('\n').at(-1) as string) : {},
          stderr,
        }),
    );
  });
}
