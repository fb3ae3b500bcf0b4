#!/usr/bin/env node
/**
 * The `mastra-mcp` command. `generate <files…>` writes the typed server map of every
 * typegen-enabled client the files export (see generate.ts). The process exits explicitly once
 * the clients are disconnected: the loaded modules may hold timers, sockets or process hooks that
 * would otherwise keep it alive. Exit codes: 0 done, 1 failed, 2 usage.
 */
import { readFile } from 'node:fs/promises';
import { printable } from './diagnostics.js';
import { generate } from './generate.js';

const USAGE = `Usage: mastra-mcp generate [--timeout <ms>] <file...>
       mastra-mcp --version

Imports each file (TypeScript is compiled, not type-checked), finds its exported MCPClient
instances that set 'typegen.outFile', lists their servers' tools, and writes one module per
client exporting 'MCPServers' for 'new MCPClient<MCPServers>(...)'. Paths are relative to the
current directory. Nothing is written unless every client succeeds.

Options:
  --timeout <ms>  how long each server gets to connect and list its tools (default: the
                  timeouts the client and its servers set)
  --version       print the version of mastra-mcp
`;

const write = (stream: NodeJS.WriteStream) => (line: string) => {
  stream.write(`${line}\n`);
};

/** This package's version: the nearest package.json named mastra-mcp (src/typegen or dist). */
async function packageVersion(): Promise<string> {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    const manifest = await readFile(new URL('package.json', dir), 'utf8').then(
      (text) => JSON.parse(text) as { name?: unknown; version?: unknown },
      () => undefined,
    );
    if (manifest?.name === 'mastra-mcp' && typeof manifest.version === 'string') return manifest.version;
    if (dir.pathname === '/') return 'unknown';
  }
}

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const usageError = (problem: string) => {
    process.stderr.write(`mastra-mcp: ${problem}\n\n${USAGE}`);
    return 2;
  };
  if (command !== 'generate')
    return usageError(command === undefined ? 'no command given' : `unknown command '${printable(command)}'`);
  const files: string[] = [];
  let timeoutMs: number | undefined;
  let optionsEnded = false;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (!optionsEnded && arg === '--') optionsEnded = true;
    else if (!optionsEnded && (arg === '--help' || arg === '-h')) {
      process.stdout.write(USAGE);
      return 0;
    } else if (!optionsEnded && (arg === '--timeout' || arg.startsWith('--timeout='))) {
      const value = arg === '--timeout' ? rest[++index] : arg.slice('--timeout='.length);
      const parsed = Number(value);
      if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0)
        return usageError(
          `--timeout needs a positive number of milliseconds, got '${printable(value ?? '')}'`,
        );
      timeoutMs = parsed;
    } else if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
      return usageError(`unknown option '${printable(arg)}'`);
    } else files.push(arg);
  }
  if (files.length === 0) return usageError('generate needs at least one file');
  return generate(
    files,
    process.cwd(),
    { out: write(process.stdout), err: write(process.stderr) },
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Unexpected: name the kind of failure only, its text may quote anything the modules held.
    const name = error instanceof Error ? error.name : typeof error;
    process.stderr.write(`mastra-mcp: internal error (${printable(name, 60)})\n`);
    process.exit(1);
  },
);
