/**
 * The `unit` vitest project holds only tests of logic: no file in it (nor a test module it
 * imports) opens a socket, starts a process or reaches a transport of its own. Each entry of
 * `unitFiles` is checked for what does: node's network and process modules, the HTTP and stdio
 * harnesses, the SDK's network and stdio transports, listeners and a bare fetch().
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitFiles } from '../../vitest.config.js';

const root = resolve(import.meta.dirname, '../..');

/** What a test of logic never needs, each with the reason a reader is given. */
const forbidden: Array<[RegExp, string]> = [
  [/from ['"]node:(http|https|http2|net|tls|dgram|child_process)['"]/, 'a node network or process module'],
  [/from ['"](redis|playwright-core|execa)['"]/, 'a Redis client, a browser or a process runner'],
  [/from ['"][./]+\/helpers\.js['"]/, 'test/helpers.ts (HTTP and stdio harnesses)'],
  [/support\/(net|process|chromium|inspector|built-package)\.js['"]/, 'a socket, process or build helper'],
  [/fixtures\/(redis-server|oidc-server|webhook-receiver|balancer)\.js['"]/, 'a fixture that listens'],
  [
    /StdioClientTransport|StreamableHTTPClientTransport|SSEClientTransport/,
    'an SDK client transport over a process or HTTP',
  ],
  [/@modelcontextprotocol\/(client\/stdio|node)['"]/, 'the SDK stdio client or node HTTP module'],
  [/\.(startHTTP|startSSE|startStdio|startHonoSSE|listen)\(/, 'a listener or stdio serving'],
  [/(^|[^.\w])fetch\(/m, 'a bare fetch() (server.fetch() is in process and allowed)'],
];

/** Every file a `unitFiles` entry names: a path, or `<dir>/**\/*.test.ts`. */
function expand(entry: string): string[] {
  const glob = entry.match(/^(.*)\/\*\*\/\*(\.[\w.]+)$/);
  if (!glob) return [entry];
  const [, dir = '', suffix = ''] = glob;
  const walk = (at: string): string[] =>
    readdirSync(join(root, at)).flatMap((name) => {
      const path = `${at}/${name}`;
      if (statSync(join(root, path)).isDirectory()) return walk(path);
      return path.endsWith(suffix) ? [path] : [];
    });
  return walk(dir);
}

/** `file` and the modules under test/ it imports, transitively (src/ is the code under test). */
function withTestImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier = ''] of readFileSync(join(root, file), 'utf8').matchAll(
    /from ['"](\.[^'"]+)['"]/g,
  )) {
    const target = relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
    if (target.startsWith('test/') && existsSync(join(root, target))) withTestImports(target, seen);
  }
  return seen;
}

const self = relative(root, import.meta.filename);
/** Every unit file but this one, whose patterns name what they look for. */
const files = unitFiles.flatMap(expand).filter((file) => file !== self);

describe('the unit project', () => {
  it('names files that exist, test/unit/ among them', () => {
    expect(files.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(files.filter((file) => file.startsWith('test/unit/')).length).toBeGreaterThan(0);
  });

  it.each(files)('%s opens no socket and starts no process', (file) => {
    const found = [...withTestImports(file)].flatMap((module) => {
      const text = readFileSync(join(root, module), 'utf8');
      return forbidden.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${module}: ${what}`);
    });
    expect(found).toEqual([]);
  });
});
