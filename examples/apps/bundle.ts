/**
 * Builds the MCP Apps example pages at start-up: each `<script type="module" src="*.ts">` of an
 * HTML file is bundled for the browser with esbuild and inlined, so every page is one
 * self-contained document. A `ui://` view must be: it runs in an opaque-origin iframe with no URL
 * to load scripts from. Nothing is written to disk.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';

const MODULE_SCRIPT = /<script type="module" src="([^"]+\.ts)"><\/script>/g;

async function bundleScript(entry: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = outputFiles[0]?.text ?? '';
  // In an inline script the HTML parser ends the element at the first `</script`, even in a string.
  return code.replaceAll('</script', '<\\/script');
}

/** The page at `htmlPath` with its TypeScript module scripts bundled and inlined. */
export async function buildPage(htmlPath: string): Promise<string> {
  const html = await readFile(htmlPath, 'utf8');
  const sources = [...new Set(Array.from(html.matchAll(MODULE_SCRIPT), (match) => match[1] as string))];
  const bundles = new Map(
    await Promise.all(
      sources.map(async (src) => [src, await bundleScript(resolve(dirname(htmlPath), src))] as const),
    ),
  );
  return html.replace(
    MODULE_SCRIPT,
    (_, src: string) => `<script type="module">${bundles.get(src)}</script>`,
  );
}
