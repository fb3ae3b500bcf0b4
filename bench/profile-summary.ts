/**
 * Summarises V8 CPU profiles written by `npm run bench -- --cpu-prof` (bench/profiles/*.cpuprofile).
 *
 *   npx tsx bench/profile-summary.ts bench/profiles/mcp-http-modern-raw-r1.cpuprofile [--top 30] [--filter /src/]
 *   npx tsx bench/profile-summary.ts <file> --callers SdkError     # who calls a function, with time
 *
 * Prints the functions with the most self time, the files (packages) with the most self time, and
 * the inclusive time of every function whose file matches --filter (default `/src/`, this
 * project's sources), so the cost a project function causes in SDK or Mastra code is visible.
 * Inclusive time follows synchronous stacks only: work resumed after an `await` is charged to the
 * microtask that resumed it, not to the function that awaited.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function shortUrl(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) return file.slice(nm + '/node_modules/'.length);
  if (file.startsWith(ROOT)) return file.slice(ROOT.length + 1);
  return file || '(native)';
}

/** A package or project directory: `@scope/pkg`, `pkg`, `src/server`, `node:internal`... */
function bucket(url: string): string {
  const short = shortUrl(url);
  if (short === '(native)') return short;
  if (short.startsWith('node:')) return short.split('/')[0] ?? short;
  const parts = short.split('/');
  if (url.includes('/node_modules/'))
    return short.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? short);
  return parts.slice(0, -1).join('/') || short;
}

function label(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : name;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '25' },
      filter: { type: 'string', default: '/src/' },
      callers: { type: 'string' },
      depth: { type: 'string', default: '6' },
    },
  });
  const top = Number(values.top);
  for (const file of positionals) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const selfUs = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
    const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
    const idle = [...selfUs.entries()]
      .filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? ''))
      .reduce((a, [, us]) => a + us, 0);
    const busy = total - idle;
    const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;

    const selfByLabel = new Map<string, number>();
    const selfByBucket = new Map<string, number>();
    const inclusive = new Map<string, number>();
    for (const [id, us] of selfUs) {
      const node = byId.get(id);
      if (!node || ['(idle)', '(program)'].includes(node.callFrame.functionName)) continue;
      selfByLabel.set(label(node.callFrame), (selfByLabel.get(label(node.callFrame)) ?? 0) + us);
      const b = bucket(node.callFrame.url);
      selfByBucket.set(b, (selfByBucket.get(b) ?? 0) + us);
      // Inclusive time of filtered functions: walk up once per distinct label on the stack.
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const frame = byId.get(cur)?.callFrame;
        if (!frame?.url.includes(values.filter)) continue;
        const key = label(frame);
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      }
    }
    // Call stacks (innermost first) that lead into functions whose name matches --callers.
    const callerStacks = new Map<string, number>();
    if (values.callers) {
      for (const [id, us] of selfUs) {
        const stack: string[] = [];
        let matched = false;
        for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
          const frame = byId.get(cur)?.callFrame;
          if (!frame) break;
          if (!matched && frame.functionName.includes(values.callers)) matched = true;
          if (matched) stack.push(label(frame));
          if (stack.length >= Number(values.depth)) break;
        }
        if (!matched) continue;
        const key = stack.join('\n      <- ');
        callerStacks.set(key, (callerStacks.get(key) ?? 0) + us);
      }
    }
    const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    console.log(`\n# ${file}`);
    console.log(
      `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled (percentages are of busy time)`,
    );
    console.log('\n## self time by package / directory');
    for (const [k, us] of sorted(selfByBucket)) console.log(`${pct(us)}  ${k}`);
    console.log('\n## self time by function');
    for (const [k, us] of sorted(selfByLabel)) console.log(`${pct(us)}  ${k}`);
    console.log(`\n## inclusive time of functions in files matching '${values.filter}'`);
    for (const [k, us] of sorted(inclusive)) console.log(`${pct(us)}  ${k}`);
    if (values.callers) {
      console.log(`\n## stacks into functions named like '${values.callers}' (inclusive time)`);
      for (const [k, us] of sorted(callerStacks)) console.log(`${pct(us)}  ${k}`);
    }
  }
}

main();
