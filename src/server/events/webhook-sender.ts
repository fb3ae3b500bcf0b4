/**
 * One signed webhook POST: Standard Webhooks headers (every current secret signs, so a rotation
 * verifies under either), `X-MCP-Subscription-Id`, no redirects, a per-request timeout and the
 * server's close signal. Before each request the callback host is resolved and refused when it
 * is not a public address (unless allowed); the fetch then resolves the name again itself, so
 * this narrows but does not close a DNS-rebinding window. Failures come back as the spec's fixed
 * categories, never as endpoint output.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { readTextWithin } from '../../shared/bounded-read.js';
import { loadStandardWebhooks, WEBHOOK_HEADERS } from '../../shared/events-wire.js';
import type { WebhookMessage, WebhookOutcome, WebhookPoster } from './contracts.js';

export type WebhookFetch = (input: string | URL, init: RequestInit) => Promise<Response>;

export interface WebhookSenderOptions {
  fetch: WebhookFetch;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}

/** The IANA special-purpose ranges that are not globally reachable. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is outside the globally reachable space. */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return NON_PUBLIC.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family === 6) return NON_PUBLIC.check(address, 'ipv6');
  return true;
}

/** A host name as written in a URL, without IPv6 brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export const controlMessageId = (type: string) => `msg_${type}_${randomBytes(12).toString('hex')}`;

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME|ALTNAME/i;
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

export class WebhookSender implements WebhookPoster {
  constructor(private readonly options: WebhookSenderOptions) {}

  /** Refuses non-public destinations unless allowed (the name is resolved now, at delivery time). */
  async destinationAllowed(url: URL): Promise<boolean> {
    if (this.options.allowPrivateAddresses) return true;
    const host = bareHost(url);
    if (isIP(host)) return !isNonPublicAddress(host);
    try {
      const addresses = await lookup(host, { all: true, verbatim: true });
      return addresses.length > 0 && addresses.every(({ address }) => !isNonPublicAddress(address));
    } catch {
      return false;
    }
  }

  async send(message: WebhookMessage): Promise<WebhookOutcome> {
    const url = new URL(message.url);
    if (message.signal.aborted || !(await this.destinationAllowed(url))) {
      return { ok: false, category: 'connection_refused', final: false };
    }
    const { Webhook } = await loadStandardWebhooks();
    const timestamp = new Date();
    const signature = message.secrets
      .map((secret) => new Webhook(secret).sign(message.messageId, timestamp, message.body))
      .join(' ');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeoutMs);
    const abort = () => controller.abort();
    message.signal.addEventListener('abort', abort, { once: true });
    try {
      const response = await this.options.fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          [WEBHOOK_HEADERS.id]: message.messageId,
          [WEBHOOK_HEADERS.timestamp]: String(Math.floor(timestamp.getTime() / 1000)),
          [WEBHOOK_HEADERS.signature]: signature,
          [WEBHOOK_HEADERS.subscriptionId]: message.subscriptionId,
        },
        body: message.body,
      });
      const { status } = response;
      if (status >= 200 && status < 300) {
        const body = message.readBody ? await readTextWithin(response.body, message.readBody) : undefined;
        if (!message.readBody) await response.body?.cancel().catch(() => {});
        return body === undefined ? { ok: true, status } : { ok: true, status, body };
      }
      await response.body?.cancel().catch(() => {});
      if (status >= 500) return { ok: false, category: 'http_5xx', status, final: false };
      // A redirect is never followed and would only repeat: final, like 410 and 413.
      const final = status === 410 || status === 413 || status < 400;
      return { ok: false, category: 'http_4xx', status, final };
    } catch (error) {
      if (timedOut) return { ok: false, category: 'timeout', final: false };
      const code = errorCode(error);
      if (TIMEOUT_CODES.has(code)) return { ok: false, category: 'timeout', final: false };
      if (TLS_CODES.test(code)) return { ok: false, category: 'tls_error', final: false };
      return { ok: false, category: 'connection_refused', final: false };
    } finally {
      clearTimeout(timer);
      message.signal.removeEventListener('abort', abort);
    }
  }
}
