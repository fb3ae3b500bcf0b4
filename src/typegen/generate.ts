/**
 * `mastra-mcp generate <files…>`: load the modules, discover every selected client's tools, render
 * and check every output, and only then replace the files. Any failure before the writes leaves
 * every existing output untouched. Every selected client is disconnected however the run ends
 * (stdio servers are child processes), and the exit code says how it ended.
 */
import { discover } from './discover.js';
import { loadClients, resolveInputs, type SelectedClient } from './load-clients.js';
import { planOutputs, writeAtomically } from './outputs.js';
import { renderModule } from './render.js';

export interface Reporter {
  /** One line of the normal result (stdout). */
  out(line: string): void;
  /** One warning or error line (stderr). */
  err(line: string): void;
}

export interface GenerateOptions {
  /**
   * Per server: connect and list within this, or fail naming the server (`--timeout`). Without
   * it the client's own `timeout` settings (client-wide and per server) bound each request.
   */
  timeoutMs?: number;
}

/** A client whose disconnect never settles must not keep the command alive. */
const DISCONNECT_GRACE_MS = 10_000;

function disconnectAll(selected: readonly SelectedClient[]): Promise<unknown> {
  return Promise.allSettled(
    selected.map(({ client }) => {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((done) => {
        timer = setTimeout(done, DISCONNECT_GRACE_MS);
      });
      return Promise.race([Promise.resolve().then(() => client.disconnect()), grace]).finally(() =>
        clearTimeout(timer),
      );
    }),
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

async function run(
  files: readonly string[],
  cwd: string,
  report: Reporter,
  options: GenerateOptions,
  selected: SelectedClient[],
  disconnect: () => Promise<unknown>,
): Promise<number> {
  const fail = (failures: readonly string[]) => {
    for (const failure of failures) report.err(`error: ${failure}`);
    report.err('mastra-mcp generate failed; no file was written');
    return 1;
  };

  const { inputs, failures: unreadable } = await resolveInputs(files, cwd);
  if (unreadable.length > 0) return fail(unreadable);
  const { failures: unloadable } = await loadClients(inputs, selected);
  if (unloadable.length > 0) return fail(unloadable);
  const { outputs, failures: clashes } = await planOutputs(selected, inputs, cwd);
  if (clashes.length > 0) return fail(clashes);

  const discovered = await Promise.all(selected.map((client) => discover(client, options.timeoutMs)));
  await disconnect(); // everything needed from the servers is here
  for (const [index, { warnings }] of discovered.entries()) {
    for (const warning of warnings) report.err(`warning: ${selected[index]?.where}: ${warning}`);
  }
  const undiscovered = discovered.flatMap(({ failures }) => failures);
  if (undiscovered.length > 0) return fail(undiscovered);

  const prepared = outputs.map((output, index) => {
    const found = discovered[index];
    const module = renderModule(found?.catalogue ?? {}, found?.legacyServers, found?.skills);
    for (const warning of module.warnings) report.err(`warning: ${output.selected.where}: ${warning}`);
    return { output, module };
  });
  const unrepresentable = prepared.flatMap(({ output, module }) =>
    module.failures.map((failure) => `${output.selected.where}: ${failure}`),
  );
  if (unrepresentable.length > 0) return fail(unrepresentable);

  for (const [index, { output, module }] of prepared.entries()) {
    try {
      await writeAtomically(output.path, module.text);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      report.err(
        `error: ${output.shown}: could not be written${typeof code === 'string' ? ` (${code})` : ''}`,
      );
      if (index > 0)
        report.err('mastra-mcp generate failed; the files reported as written above were updated');
      else report.err('mastra-mcp generate failed; no file was written');
      return 1;
    }
    report.out(
      `wrote ${output.shown}: ${plural(module.servers, 'server')}, ${plural(module.tools, 'tool')} (${output.selected.where})`,
    );
  }
  return 0;
}

/** Runs the command; resolves to the exit code once every selected client is disconnected. */
export async function generate(
  files: readonly string[],
  cwd: string,
  report: Reporter,
  options: GenerateOptions = {},
): Promise<number> {
  const selected: SelectedClient[] = [];
  let disconnecting: Promise<unknown> | undefined;
  const disconnect = () => {
    disconnecting ??= disconnectAll(selected);
    return disconnecting;
  };
  try {
    return await run(files, cwd, report, options, selected, disconnect);
  } finally {
    await disconnect();
  }
}
