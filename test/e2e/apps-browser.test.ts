/**
 * MCP Apps in a real browser: headless Chromium opens the example host page (examples/apps), which
 * loads the MCPServer's `ui://calculator/main` view through the sandbox proxy; the view calls the
 * server's `calculate` tool through the AppBridge when "=" is clicked inside the iframe. Also runs
 * `npm run demo -- --apps` as a process and stops it with SIGINT.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppsExample, startAppsExample } from '../../examples/apps/serve.js';
import { launchChromium } from '../support/chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOT = `${ROOT}.cache/screenshots/apps-browser.png`;
/** How long the host page may take to show something (two bundles parse, a few round trips). */
const UI_TIMEOUT_MS = 10_000;
/** Bundling the pages and starting Chromium or a tsx process take a while on a busy 2-core machine. */
const START_TIMEOUT_MS = 60_000;

describe('MCP Apps in headless Chromium', () => {
  let example: AppsExample;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    example = await startAppsExample();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Console errors of the host page and its frames: CSP refusals, failed loads, bridge failures.
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(example.hostUrl.href);
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await example?.close();
  });

  /** The outer frame (sandbox proxy) and the view inside it, once both exist. */
  async function frames(): Promise<{ proxy: Frame; view: Frame }> {
    const proxy = await (await page.waitForSelector('#app-frame', { timeout: UI_TIMEOUT_MS })).contentFrame();
    const inner = await proxy?.waitForSelector('iframe', { timeout: UI_TIMEOUT_MS });
    const view = await inner?.contentFrame();
    if (!proxy || !view) throw new Error('the host page rendered no sandbox proxy with a view inside');
    return { proxy, view };
  }

  const view = () => page.frameLocator('#app-frame').frameLocator('iframe');

  async function resultText(expected: RegExp): Promise<string | null> {
    const result = view().locator('#result');
    await result.filter({ hasText: expected }).waitFor({ timeout: UI_TIMEOUT_MS });
    return result.textContent();
  }

  it('lists the tool linked to a view and shows the first call the host made', async () => {
    await expect(resultText(/=/)).resolves.toBe('6 × 7 = 42');
    await expect(page.locator('#server').textContent()).resolves.toBe(
      'Calculator 1.0.0 (protocol 2026-07-28): calculate → ui://calculator/main',
    );
    await expect(page.locator('#status').textContent()).resolves.toBe('view Calculator 1.0.0 initialized');
    await expect(view().locator('#status').textContent()).resolves.toBe(
      'connected to mastra-mcp example host 1.0.0',
    );
  });

  it('a click inside the view calls the server tool through the bridge and renders its result, logging no errors', async () => {
    await view().locator('#num1').fill('19');
    await view().locator('#num2').fill('0');
    await view().locator('#operation').selectOption('divide');
    await view().locator('#calculate').click();
    await expect(resultText(/must not be 0/)).resolves.toContain(
      'calculate: num2 must not be 0 when operation is "divide"',
    );
    await expect(view().locator('#result.error').count()).resolves.toBe(1);

    await view().locator('#num2').fill('23');
    await view().locator('#operation').selectOption('multiply');
    await view().locator('#calculate').click();
    await expect(resultText(/×/)).resolves.toBe('19 × 23 = 437');
    await expect(view().locator('#result.error').count()).resolves.toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('saves a screenshot of the rendered app', async () => {
    await mkdir(`${ROOT}.cache/screenshots`, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = await readFile(SCREENSHOT);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('runs the view in an opaque origin inside a proxy on another origin, under a CSP without network', async () => {
    const { proxy, view: viewFrame } = await frames();
    expect(new URL(proxy.url()).origin).toBe(example.sandboxUrl.origin);
    expect(example.sandboxUrl.origin).not.toBe(example.hostUrl.origin);
    const isolation = await viewFrame.evaluate(async (hostUrl) => {
      let parentReadable = true;
      try {
        void window.parent.document.body;
      } catch {
        parentReadable = false;
      }
      // no-cors would give an opaque response: only the view's CSP (connect-src 'none') refuses it.
      const fetched = await fetch(hostUrl, { mode: 'no-cors' }).then(
        () => 'fetched',
        () => 'blocked',
      );
      return { origin: self.origin, parentReadable, fetched };
    }, example.hostUrl.href);
    expect(isolation).toEqual({ origin: 'null', parentReadable: false, fetched: 'blocked' });
    // And it was the CSP the proxy built from `_meta.ui.csp` that refused the request.
    expect(pageErrors.join('\n')).toContain(
      `Connecting to '${example.hostUrl.href}' violates the following Content Security Policy directive: "connect-src 'none'"`,
    );
  });
});

describe('npm run demo -- --apps', () => {
  it(
    'prints the host page URL, serves it, and stops cleanly on SIGINT',
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo.ts', '--apps'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        const hostUrl = await new Promise<string>((resolve, reject) => {
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            stdout += chunk;
            const url = /host page {2}(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)?.[1];
            if (url && stdout.includes('Ctrl-C')) resolve(url);
          });
          child.on('exit', (code) =>
            reject(new Error(`demo exited (${code}) before serving:\n${stdout}${stderr}`)),
          );
        });
        const response = await fetch(hostUrl);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('<title>MCP Apps host · mastra-mcp</title>');
        child.kill('SIGINT');
        // Exiting by itself after SIGINT means nothing (listeners, the MCPServer, esbuild) was left open.
        expect(await exited, `${stdout}${stderr}`).toBe(0);
        expect(stdout).toMatch(/^stopped on SIGINT: servers closed$/m);
        expect(stderr).toBe('');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    START_TIMEOUT_MS,
  );
});
