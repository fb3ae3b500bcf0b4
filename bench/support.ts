/**
 * Helpers shared by the benches (bench/client.ts, bench/catalog.ts, bench/events.ts, bench/scale.ts;
 * bench/server.ts for the CPU reading; the flood benches for memory; bench/install.ts for the packed
 * tarball; bench/fixtures/call-latency.ts for profiles): statistics, formatting, a process' CPU time,
 * memory after a GC, a CPU profiler, the packed package installed into an app, and the server fixtures run as child processes on 127.0.0.1 ephemeral ports.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const MODERN = '2026-07-28';

/** RSS and heap + external in MiB after a full GC; the bench must run with `node --expose-gc`. */
export function memoryAfterGc(): { rssMiB: number; heapExternalMiB: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rssMiB: Math.round(rss / 2 ** 20), heapExternalMiB: Math.round((heapUsed + external) / 2 ** 20) };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
/** The value at or above `p` percent of the sorted values. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
export const ms = (value: number) => `${value.toFixed(3)} ms`;
export const ratio = (value: number) => `${value.toFixed(2)}x`;

export interface CpuProfiler {
  start(): Promise<void>;
  /** Stops and writes the profile to `file` (renamed into place once complete). */
  stop(file: string): Promise<void>;
}

/** V8's CPU profiler on this process (node:inspector), sampling every `intervalUs`. */
export async function cpuProfiler(intervalUs: number): Promise<CpuProfiler> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  return {
    start: async () => {
      await session.post('Profiler.start');
    },
    stop: async (file) => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${file}.tmp`, JSON.stringify(profile));
      renameSync(`${file}.tmp`, file);
    },
  };
}

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Tarball {
  path: string;
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
}

/** `npm pack` of this repository into `work`; dist/ must be built (--ignore-scripts: prepack would build it again). */
export function packTarball(work: string): Tarball {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const [packed] = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], repo),
  ) as Omit<Tarball, 'path'>[];
  if (!packed) throw new Error('npm pack produced no tarball');
  return { ...packed, path: join(work, packed.filename) };
}

/** An empty app in `work/<name>` after `npm install <args>` from the registry; returns its directory. */
export function installApp(work: string, name: string, args: string[]): string {
  const app = join(work, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  npm(['install', '--no-audit', '--no-fund', ...args], app);
  return app;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a process in milliseconds, read from /proc (Linux); undefined elsewhere. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export interface ServerChild {
  urls: URL[];
  child: ChildProcess;
  /** The next line the child prints after its ports (fixtures that answer commands on stdin). */
  nextLine(): Promise<string>;
}

/**
 * Starts a fixture that serves MCP over HTTP and prints its ports as a JSON array on the first
 * line of its output; its stdin stays open (the fixtures exit when it ends). `nodeArgs` go before
 * the script (`['--import', 'tsx']` for a TypeScript one).
 */
export async function spawnHttpServers(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<ServerChild> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> })[
    Symbol.asyncIterator
  ]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${script} closed its output`);
    return value as string;
  };
  const ports = JSON.parse(await nextLine()) as number[];
  return { urls: ports.map((port) => new URL(`http://127.0.0.1:${port}/mcp`)), child, nextLine };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
}
