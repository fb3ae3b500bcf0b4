import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../support/process.js';
import { eventually } from '../support/wait.js';

describe('process hooks', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s disconnects the servers and ends the process',
    async (signal, code) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/process-hooks.ts'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      const serverPid = Number(
        await eventually('the server pid', () => stdout.includes('\n') && stdout.trim(), 30_000),
      );
      expect(isAlive(serverPid)).toBe(true);
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (exitCode) => resolve(exitCode)),
      );
      child.kill(signal);
      expect(await exited).toBe(code);
      await eventually('the MCP server process to be gone', () => !isAlive(serverPid));
    },
    60_000,
  );
});
