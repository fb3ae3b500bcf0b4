/**
 * The `requestState` option: the secret every instance of a scaled-out server signs and verifies
 * 2026-07-28 request state with, and the name of this instance. Without it each process signs with
 * its own random key, so only the process that minted a state accepts it. A suspended tool run
 * lives in one instance's memory whatever the key; the state names that instance so a retry that
 * reaches another one is refused clearly (suspended-calls.ts) instead of looking expired.
 *
 * Rotation: with several keys the first signs and each verifies, so deploy the new key second
 * everywhere, then first, then drop the old one once the state it signed has expired (300 s).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';

/** A secret: a string (its UTF-8 bytes count) or raw bytes. */
export type RequestStateKey = string | Uint8Array;

export interface MCPServerRequestStateOptions {
  /**
   * The HMAC secret every instance of this server shares, at least 32 bytes (for example
   * `openssl rand -base64 32`). A list rotates keys: the first signs, every one verifies.
   */
  key: RequestStateKey | RequestStateKey[];
  /**
   * This instance's name, unique among the instances (for example the pod name). It is written into
   * the state of every suspended call and sent as the `Mcp-Instance-Id` response header. Default: a
   * random UUID per process.
   */
  instanceId?: string;
}

export interface ResolvedRequestState {
  keys: Uint8Array[];
  instanceId: string;
  /** The option was given: HTTP responses name the instance. */
  shared: boolean;
}

export const REQUEST_STATE_MIN_KEY_BYTES = 32;

const INSTANCE_ID = /^[\x21-\x7e]{1,128}$/;

/** One process on its own: a random key and a random instance name. */
export function localRequestState(): ResolvedRequestState {
  return { keys: [randomBytes(REQUEST_STATE_MIN_KEY_BYTES)], instanceId: randomUUID(), shared: false };
}

function invalid(serverId: string, field: string, problem: string): never {
  throw mcpError(
    MCPErrorCode.SERVER_INVALID_REQUEST_STATE_OPTION,
    `MCP server '${serverId}': ${field} ${problem}`,
    { serverId, field },
  );
}

function keyBytes(serverId: string, field: string, key: unknown): Uint8Array {
  const bytes =
    typeof key === 'string' ? new TextEncoder().encode(key) : key instanceof Uint8Array ? key : undefined;
  if (!bytes) {
    invalid(serverId, field, `must be a string or a Uint8Array, got ${key === null ? 'null' : typeof key}`);
  }
  if (bytes.byteLength < REQUEST_STATE_MIN_KEY_BYTES) {
    invalid(
      serverId,
      field,
      `is ${bytes.byteLength} bytes; a request-state key needs at least ${REQUEST_STATE_MIN_KEY_BYTES} (for example \`openssl rand -base64 32\`), the same on every instance`,
    );
  }
  return bytes;
}

export function resolveRequestState(
  serverId: string,
  options: MCPServerRequestStateOptions | undefined,
): ResolvedRequestState {
  if (!options) return localRequestState();
  const listed = Array.isArray(options.key);
  const keys = (listed ? options.key : [options.key]) as unknown[];
  if (keys.length === 0) invalid(serverId, 'requestState.key', 'is an empty list; give at least one secret');
  const instanceId = options.instanceId ?? randomUUID();
  if (!INSTANCE_ID.test(instanceId)) {
    invalid(
      serverId,
      'requestState.instanceId',
      `'${instanceId}' cannot be an HTTP header value: use 1 to 128 visible ASCII characters without spaces (for example the pod name)`,
    );
  }
  return {
    keys: keys.map((key, i) =>
      keyBytes(serverId, listed ? `requestState.key[${i}]` : 'requestState.key', key),
    ),
    instanceId,
    shared: true,
  };
}

/**
 * The instance a `requestState` minted by MCPServer names, for a router that reads request bodies
 * (the fallback for clients that do not echo `Mcp-Instance-Id`, docs/DEPLOYMENT.md). The state is
 * signed, not encrypted, so this needs no key; it checks nothing either: the instance verifies.
 */
export function requestStateInstance(state: string): string | undefined {
  const [version, body] = state.split('.');
  if (version !== 'v1' || !body) return undefined;
  try {
    const envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      p?: { instance?: unknown };
    };
    return typeof envelope.p?.instance === 'string' ? envelope.p.instance : undefined;
  } catch {
    return undefined;
  }
}

/** Signs with the first key; tries each key in turn on verify (only a MAC mismatch moves on). */
export function rotatingCodec<T>(keys: Uint8Array[], ttlSeconds: number): RequestStateCodec<T> {
  const codecs = keys.map((key) => createRequestStateCodec<T>({ key, ttlSeconds }));
  const signer = codecs[0] as RequestStateCodec<T>;
  return {
    mint: (payload, ctx) => signer.mint(payload, ctx),
    verify: async (state, ctx) => {
      let failure: unknown;
      for (const codec of codecs) {
        try {
          return await codec.verify(state, ctx);
        } catch (error) {
          // The SDK's fixed reason codes: 'mac' means another key may have signed it.
          if (!(error instanceof Error && error.message === 'mac')) throw error;
          failure = error;
        }
      }
      throw failure;
    },
  };
}
