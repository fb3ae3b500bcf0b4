/**
 * Finds the clients to generate for: each input file is imported once (TypeScript compiled by
 * tsx when it is installed, never type-checked, so a generated type-only import may still be
 * missing: module-loader.ts), and only its direct named and default exports are inspected. A
 * client is recognised by the registry symbol MCPClient carries (`MCP_CLIENT_BRAND`), not by
 * `instanceof`: the module may load its own copy of this package. Nothing here connects or calls
 * a tool.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { printable } from './diagnostics.js';
import { loadError } from './load-error.js';
import { createModuleLoader } from './module-loader.js';
import type { Catalogue } from './render.js';
import { syntaxErrorPlace } from './syntax-check.js';

/** The same registry symbol as `MCP_CLIENT_BRAND` in src/client/client.ts. */
const CLIENT_BRAND = Symbol.for('mastra-mcp.MCPClient');

/** What generation uses of a client, whichever copy of the package built it. */
export interface GeneratorClient {
  readonly typegen?: { readonly outFile: string } | undefined;
  listToolDefinitionsWithErrors(options?: { perServerTimeoutMs?: number }): Promise<{
    definitions: Catalogue;
    errors?: Record<string, string>;
    errorDetails?: Record<string, { message?: string; httpStatus?: number; code?: string | number }>;
  }>;
  disconnect(): Promise<void>;
}

export interface InputFile {
  /** As given on the command line, for messages. */
  shown: string;
  /** Symlinks resolved: the identity used for deduplication and overwrite checks. */
  real: string;
}

export interface SelectedClient {
  client: GeneratorClient;
  /** `file (export 'name')`, for messages. */
  where: string;
  outFile: string;
}

/** Input files resolved from `cwd`, repeated files and symlink aliases dropped (first one wins). */
export async function resolveInputs(
  files: readonly string[],
  cwd: string,
): Promise<{ inputs: InputFile[]; failures: string[] }> {
  const inputs: InputFile[] = [];
  const failures: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    let real: string;
    try {
      real = await realpath(resolve(cwd, file));
    } catch {
      failures.push(`${printable(file)}: cannot read the file`);
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    inputs.push({ shown: file, real });
  }
  return { inputs, failures };
}

function brandedClient(value: unknown): value is GeneratorClient {
  try {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CLIENT_BRAND] === true
    );
  } catch {
    return false;
  }
}

function outFileOf(client: GeneratorClient): string | undefined {
  try {
    const outFile = client.typegen?.outFile;
    return typeof outFile === 'string' && outFile.trim() !== '' ? outFile : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Imports every input with one loader (a module two inputs share is evaluated once, so its
 * client is one object) and selects typegen-enabled clients; one client exported under several
 * names, or from several files, is selected once. `selected` fills as files load, so a caller can
 * disconnect what was found even when a later file fails.
 */
export async function loadClients(
  inputs: readonly InputFile[],
  selected: SelectedClient[],
): Promise<{ failures: string[] }> {
  const failures: string[] = [];
  const loader = await createModuleLoader(inputs.map(({ real }) => real));
  const known = new Set<GeneratorClient>(selected.map(({ client }) => client));
  for (const input of inputs) {
    const shown = printable(input.shown);
    const unavailable = loader.unavailable(input.real);
    if (unavailable !== undefined) {
      failures.push(`${shown}: ${unavailable}`);
      continue;
    }
    let exports: Record<string, unknown>;
    try {
      exports = await loader.import(input.real);
    } catch (error) {
      const place = await syntaxErrorPlace(input.real, error);
      failures.push(`${shown}: the module failed to load: ${loadError(error, place)}`);
      continue;
    }
    let eligible = 0;
    for (const exportName of Object.keys(exports)) {
      let value: unknown;
      try {
        value = exports[exportName];
      } catch {
        continue; // an export still in its temporal dead zone
      }
      if (!brandedClient(value)) continue;
      const outFile = outFileOf(value);
      if (outFile === undefined) continue;
      eligible++;
      if (known.has(value)) continue;
      known.add(value);
      selected.push({ client: value, where: `${shown} (export '${printable(exportName)}')`, outFile });
    }
    if (eligible === 0)
      failures.push(
        `${shown}: no exported MCPClient with 'typegen.outFile' (direct named or default exports)`,
      );
  }
  return { failures };
}
