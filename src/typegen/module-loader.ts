/**
 * How `generate` imports its input files. TypeScript inputs need tsx, an optional peer
 * dependency: it is imported here, only when a `.ts`, `.mts` or `.cts` file is given, so a library
 * install never needs it (nor esbuild under it). JavaScript inputs load without it.
 */
import { pathToFileURL } from 'node:url';
import { printable } from './diagnostics.js';

/** What a user whose TypeScript input cannot load for want of tsx is told to do. */
export const TSX_MISSING =
  "a TypeScript file needs the optional peer dependency tsx, which is not installed: run 'npm install -D tsx' (or give a .js or .mjs file)";

export interface ModuleLoader {
  /** Why `file` cannot be imported in this run (TypeScript without tsx), or undefined. */
  unavailable(file: string): string | undefined;
  /** Imports `file` (an absolute path); rejects as its loading or evaluation did. */
  import(file: string): Promise<Record<string, unknown>>;
}

const isTypeScript = (file: string): boolean => /\.[mc]?ts$/i.test(file);

/**
 * The loader for one run over `files`. With a TypeScript input, tsx's CommonJS and ESM hooks are
 * registered in one namespace that every input then goes through (what `tsImport()` does per
 * call, once for all: a module two inputs share is evaluated once, and `require()`d TypeScript
 * compiles too). Without one, or without tsx, Node's own `import()` loads the JavaScript inputs.
 */
export async function createModuleLoader(files: readonly string[]): Promise<ModuleLoader> {
  const native: ModuleLoader = {
    unavailable: () => undefined,
    import: (file) => import(pathToFileURL(file).href),
  };
  if (!files.some(isTypeScript)) return native;
  let apis: [typeof import('tsx/cjs/api'), typeof import('tsx/esm/api')];
  try {
    apis = await Promise.all([import('tsx/cjs/api'), import('tsx/esm/api')]);
  } catch (error) {
    const problem = tsxFailure(error);
    return { ...native, unavailable: (file) => (isTypeScript(file) ? problem : undefined) };
  }
  const [cjs, esm] = apis;
  const namespace = `mastra-mcp-generate-${process.pid}`;
  cjs.register({ namespace });
  const loader = esm.register({ namespace });
  return {
    unavailable: () => undefined,
    import: (file) => loader.import(pathToFileURL(file).href, import.meta.url),
  };
}

function tsxFailure(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (code === 'ERR_MODULE_NOT_FOUND' && /['"]tsx['"]/.test(text)) return TSX_MISSING;
  return `tsx is installed but failed to load: ${printable(text.split('\n', 1)[0] ?? '', 300)}`;
}
