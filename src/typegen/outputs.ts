/**
 * Output files: planned and checked before anything is written (two clients claiming one file,
 * an output that is one of the input modules, an output that is a directory), then each replaced
 * atomically: written to a temporary file in the same directory and renamed over the target.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { printable } from './diagnostics.js';
import type { InputFile, SelectedClient } from './load-clients.js';

export interface PlannedOutput {
  selected: SelectedClient;
  /** Resolved from the command's working directory; where the file is written. */
  path: string;
  /** Symlinks resolved as far as the path exists: the identity compared for collisions. */
  canonical: string;
  shown: string;
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended. */
async function canonicalPath(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch {
      if (dirname(current) === current) return path;
      rest.push(basename(current));
    }
  }
}

export async function planOutputs(
  selected: readonly SelectedClient[],
  inputs: readonly InputFile[],
  cwd: string,
): Promise<{ outputs: PlannedOutput[]; failures: string[] }> {
  const failures: string[] = [];
  const outputs: PlannedOutput[] = [];
  const owners = new Map<string, PlannedOutput>();
  const inputPaths = new Set(inputs.map(({ real }) => real));
  for (const client of selected) {
    const path = resolve(cwd, client.outFile);
    const output = {
      selected: client,
      path,
      canonical: await canonicalPath(path),
      shown: printable(client.outFile),
    };
    outputs.push(output);
    const owner = owners.get(output.canonical);
    if (owner) {
      failures.push(`${output.shown}: the outFile of both ${owner.selected.where} and ${client.where}`);
      continue;
    }
    owners.set(output.canonical, output);
    if (inputPaths.has(output.canonical)) {
      failures.push(`${output.shown}: the outFile of ${client.where} would overwrite an input file`);
    } else if ((await stat(path).catch(() => undefined))?.isDirectory()) {
      failures.push(`${output.shown}: the outFile of ${client.where} is a directory`);
    }
  }
  return { outputs, failures };
}

/** Replaces `path` in one rename, so readers see the old file or the new one, never a partial one. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
