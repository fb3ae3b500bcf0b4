import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('nothing is left running', () => {
  it('a process that used every HTTP transport exits by itself after close()', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/leak-check.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let closedAt = 0;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('closed')) closedAt = Date.now();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = await new Promise<number | 'hung'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 25_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      });
    });
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: 'closed\n' });
    // Lingering work (the abandoned tool's 5 s timer, an open socket) would delay the exit.
    expect(Date.now() - closedAt).toBeLessThan(3000);
  }, 40_000);
});
