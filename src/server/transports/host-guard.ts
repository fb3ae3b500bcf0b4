/**
 * DNS-rebinding protection for the HTTP transports. A server listening on a loopback address only
 * accepts loopback `Host` and `Origin` headers unless told otherwise; a server on any other
 * address checks them only against lists it was given. Decisions use the SDK's validators.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';

export interface HostGuardOptions {
  /** Hostnames (no port) the `Host` header may name. Default: loopback names on a loopback listener. */
  allowedHosts?: string[];
  /** Hostnames (no port) a browser `Origin` may name. Default: loopback names on a loopback listener. */
  allowedOrigins?: string[];
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** Returns why the request must be refused (403), or undefined when it may proceed. */
export function hostGuardRejection(req: IncomingMessage, options: HostGuardOptions = {}): string | undefined {
  const loopback = isLoopbackAddress(req.socket?.localAddress);
  const hosts = options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined);
  const origins = options.allowedOrigins ?? (loopback ? localhostAllowedOrigins() : undefined);
  if (hosts) {
    const host = validateHostHeader(req.headers.host, hosts);
    if (!host.ok) return host.message;
  }
  if (origins) {
    const origin = validateOriginHeader(req.headers.origin, origins);
    if (!origin.ok) return origin.message;
  }
  return undefined;
}
