/**
 * The `cors` option in a real browser: headless Chromium opens a page on one origin (its own
 * 127.0.0.1 listener), whose bundled SDK client connects to an MCPServer on another (`listen()`
 * with that origin in `cors.origins`), lists the tools and calls one, on both protocol eras (the
 * legacy one reads `Mcp-Session-Id`, which only an exposed header lets it). A page on an origin
 * that is not listed is refused by the browser: its preflight gets 403 and no CORS headers.
 */
import { createServer } from 'node:http';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCPServer } from '../../src/index.js';
import { fullConfig } from '../fixtures/tools.js';
import { launchChromium } from '../support/chromium.js';
import { type LocalListener, listenLocal } from '../support/net.js';

/** Bundling the page and starting Chromium take a while on a busy 2-core machine. */
const START_TIMEOUT_MS = 60_000;

interface Outcome {
  ok: boolean;
  value?: { tools: string[]; result: unknown; session: string | null };
  error?: string;
}

/** A page origin: a listener serving the bundled page at `/`. */
async function pageOrigin(script: string): Promise<LocalListener> {
  const html = `<!doctype html><meta charset="utf-8"><title>cors</title><script type="module">${script}</script>`;
  return listenLocal(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    }),
  );
}

describe('cors in headless Chromium', () => {
  let server: MCPServer;
  let mcpUrl: URL;
  let closeMcp: () => Promise<void>;
  let listed: LocalListener;
  let unlisted: LocalListener;
  let browser: Browser;

  beforeAll(async () => {
    const { outputFiles } = await build({
      entryPoints: ['test/fixtures/cors-page.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const script = (outputFiles[0]?.text ?? '').replaceAll('</script', '<\\/script');
    listed = await pageOrigin(script);
    unlisted = await pageOrigin(script);
    server = new MCPServer(fullConfig());
    ({ url: mcpUrl, close: closeMcp } = await server.listen({ port: 0, cors: { origins: [listed.url] } }));
    browser = await launchChromium();
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await closeMcp?.();
    await server?.close();
    await listed?.close();
    await unlisted?.close();
  });

  async function outcomeOn(origin: LocalListener, era: 'modern' | 'legacy'): Promise<Outcome> {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin.url}/?era=${era}&server=${encodeURIComponent(mcpUrl.href)}`);
      return (await page.evaluate(
        () => (window as unknown as { outcome: Promise<Outcome> }).outcome,
      )) as Outcome;
    } finally {
      await page.close();
    }
  }

  it.each(['modern', 'legacy'] as const)(
    'a page on a listed origin lists and calls a tool (%s)',
    async (era) => {
      const outcome = await outcomeOn(listed, era);
      expect(outcome.error).toBeUndefined();
      expect(outcome.value?.tools).toContain('weatherTool');
      expect(outcome.value?.result).toEqual({ location: 'Kyoto', forecast: 'Weather in Kyoto is sunny.' });
      // The legacy era's session id came from a response header the page could only read exposed.
      if (era === 'legacy') expect(outcome.value?.session).toMatch(/^[0-9a-f-]{36}$/);
      else expect(outcome.value?.session).toBeNull();
    },
  );

  it('a page on an origin not listed is refused', async () => {
    const outcome = await outcomeOn(unlisted, 'modern');
    expect(outcome.ok).toBe(false);
    // What the SDK client met under its own error: the browser refused the request.
    const page = await browser.newPage();
    try {
      await page.goto(`${unlisted.url}/?era=none`);
      const probe = await page.evaluate(
        (url) =>
          fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
            (response) => `HTTP ${response.status}`,
            (error: unknown) => String(error),
          ),
        mcpUrl.href,
      );
      expect(probe).toBe('TypeError: Failed to fetch');
    } finally {
      await page.close();
    }
  });
});
