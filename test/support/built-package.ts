/**
 * The built package for tests that read its declarations (types-consumer, api-report): `dist/`
 * when it is newer than every input of the build (CI builds just before the tests), otherwise a
 * fresh build into a directory under node_modules/.cache (so the build's own imports resolve),
 * removed by `dispose()`.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const root = resolve(import.meta.dirname, '../..');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestSource(join(path, entry))));
}

function distIsFresh(): boolean {
  const types = join(root, 'dist/index.d.mts');
  if (!existsSync(types)) return false;
  const inputs = ['src', 'package.json', 'tsdown.config.ts'].map((path) => newestSource(join(root, path)));
  return statSync(types).mtimeMs > Math.max(...inputs);
}

export interface BuiltPackage {
  /** A directory holding `package.json` and a current `dist/`. */
  dir: string;
  /** A scratch directory for the test's own output, removed with the build. */
  scratch: string;
  dispose(): void;
}

/** The package with a current build; `prefix` names the scratch directory. */
export async function builtPackage(prefix: string): Promise<BuiltPackage> {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const scratch = mkdtempSync(join(root, `node_modules/.cache/${prefix}-`));
  let dir = root;
  if (!distIsFresh()) {
    dir = join(scratch, 'package');
    mkdirSync(dir);
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    await run('npx', ['tsdown', '--out-dir', join(dir, 'dist')], { cwd: root });
  }
  return { dir, scratch, dispose: () => rmSync(scratch, { recursive: true, force: true }) };
}
