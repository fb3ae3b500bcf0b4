/**
 * The import-time check of the `@mastra/core` peer.
 *
 * Every module of the package imports `@mastra/core` statically, and ESM resolves those imports
 * before any code runs: with an unsupported `@mastra/core` (npm picks a 0.x on Node 20 when the
 * peer is added without a version) the import fails with a module-not-found naming a file inside
 * `@mastra/core`. The published entry points therefore run this check before they load the rest
 * (see scripts/entry-wrappers.ts), so the user reads which version is installed and which one is
 * needed. This module imports nothing but Node built-ins, and never `@mastra/core` itself.
 */

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';

/** The supported `@mastra/core` versions: package.json's peerDependencies range (a test keeps them equal). */
export const MASTRA_CORE_RANGE = '>=1.68.0 <2';
const MINIMUM: readonly [number, number, number] = [1, 68, 0];
const NEXT_MAJOR = 2;
/** The version this package is tested with, suggested in the error. */
const INSTALL_HINT = 'npm install @mastra/core@^1.71.0';

/**
 * Whether `from` names a file on disk. A bundled Worker has no `import.meta.url` and no file
 * system: its bundler resolved `@mastra/core` at build time, so there is nothing left to check.
 */
function isFileLocation(from: string | undefined): from is string {
  return typeof from === 'string' && (from.startsWith('file:') || isAbsolute(from));
}

/** Deno without `--allow-read` refuses the look-up; the import itself needs no such permission. */
function isPermissionRefusal(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotCapable' || name === 'PermissionDenied';
}

/** Where `@mastra/core/package.json` is, as Node would find the package from `from`, or undefined. */
function findPackageJson(from: string): string | undefined {
  // Walked by hand rather than require.resolve('@mastra/core/package.json'): a package whose
  // exports map omits ./package.json (older releases) must still be found and named.
  for (const dir of createRequire(from).resolve.paths('@mastra/core') ?? []) {
    const file = join(dir, '@mastra', 'core', 'package.json');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Whether `version` (x.y.z, any prerelease ignored) is in MASTRA_CORE_RANGE. */
export function isSupportedMastraCore(version: string): boolean {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number);
  if (!parts) return false;
  const [major = 0, minor = 0, patch = 0] = parts;
  if (major >= NEXT_MAJOR) return false;
  if (major !== MINIMUM[0]) return major > MINIMUM[0];
  if (minor !== MINIMUM[1]) return minor > MINIMUM[1];
  return patch >= MINIMUM[2];
}

/**
 * Throws when the `@mastra/core` that `from` (a module URL or path) would load is missing or
 * outside MASTRA_CORE_RANGE; the message names the installed version, its location, the required
 * range and the install command. Skipped where there is no file system to look in (a bundled
 * Worker) or no permission to read it (Deno without `--allow-read`).
 */
export function assertSupportedMastraCore(from: string | undefined): void {
  if (!isFileLocation(from)) return;
  let file: string | undefined;
  try {
    file = findPackageJson(from);
  } catch (error) {
    if (isPermissionRefusal(error)) return;
    throw error;
  }
  if (!file) {
    throw new Error(
      `mastra-mcp needs its peer dependency @mastra/core ${MASTRA_CORE_RANGE}, which is not installed. Run: ${INSTALL_HINT}`,
    );
  }
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
  } catch (error) {
    if (isPermissionRefusal(error)) return;
    throw new Error(`mastra-mcp could not read the version of @mastra/core from ${file}: ${String(error)}`);
  }
  if (typeof version === 'string' && isSupportedMastraCore(version)) return;
  throw new Error(
    `mastra-mcp needs @mastra/core ${MASTRA_CORE_RANGE}, but @mastra/core ${String(version)} is installed ` +
      `(${file}). Run: ${INSTALL_HINT} (@mastra/core 1.x declares Node >= 22.13; on Node 20 npm ` +
      'picks a 0.x release when no version is given).',
  );
}
