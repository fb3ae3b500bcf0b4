import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('nothing is left running', () => {
  it('a process that used every HTTP transport exits by itself after close()', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/leak-check.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
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
    // The fixture prints what still keeps its event loop alive after close(): nothing may.
    expect({ exited, stdout }, stderr).toEqual({ exited: 0, stdout: '[]\n' });
  }, 40_000);
});
