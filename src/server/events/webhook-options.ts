/**
 * The `events.webhook` option with its defaults filled in (the default principal is auth/principal.ts).
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { defaultPrincipal } from '../auth/principal.js';
import type { MCPServerWebhookOptions } from './types.js';

export type ResolvedWebhookOptions = Required<
  Omit<MCPServerWebhookOptions, 'retry' | 'principal' | 'queue'>
> & {
  retry: { attempts: number; initialDelayMs: number; maxDelayMs: number };
  principal: (authInfo: AuthInfo) => string | undefined;
};

export function resolveWebhookOptions(options: MCPServerWebhookOptions = {}): ResolvedWebhookOptions {
  const minTtlMs = Math.max(1000, options.minTtlMs ?? 60_000);
  const maxTtlMs = Math.max(minTtlMs, options.maxTtlMs ?? 24 * 60 * 60 * 1000);
  return {
    maxSubscriptions: options.maxSubscriptions ?? 1000,
    minTtlMs,
    maxTtlMs,
    defaultTtlMs: Math.min(maxTtlMs, Math.max(minTtlMs, options.defaultTtlMs ?? 60 * 60 * 1000)),
    retry: {
      attempts: Math.max(1, options.retry?.attempts ?? 5),
      initialDelayMs: Math.max(0, options.retry?.initialDelayMs ?? 1000),
      maxDelayMs: Math.max(0, options.retry?.maxDelayMs ?? 5 * 60 * 1000),
    },
    timeoutMs: options.timeoutMs ?? 10_000,
    suspendAfter: Math.max(1, options.suspendAfter ?? 3),
    secretGraceMs: options.secretGraceMs ?? 5 * 60 * 1000,
    verificationTtlMs: options.verificationTtlMs ?? 24 * 60 * 60 * 1000,
    allowPrivateAddresses: options.allowPrivateAddresses ?? false,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    principal: options.principal ?? defaultPrincipal,
  };
}
