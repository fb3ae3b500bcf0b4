/**
 * What answers one server's sampling and roots requests: the server definition's `sampling` and
 * `roots`, else the client's. A capability is declared only where an answer is configured
 * (sdk-client.ts), so `capabilities.sampling` or `capabilities.roots` declared without one fails
 * the construction instead of being answered -32601 later. How a 2025 server hears of a failed
 * answer is here too (forLegacyServer); on 2026-07-28 a failure ends the call that asked.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import { messageOf } from './errors.js';
import { assertRoots, ServerRoots } from './roots/server-roots.js';
import { Sampler } from './sampling/sampler.js';
import type { MastraMCPServerDefinition, MCPClientOptions } from './types.js';

export interface ServerAnswers {
  readonly sampler?: Sampler;
  readonly roots?: ServerRoots;
}

/** The spec's rejection of a sampling request by the user (2025-11-25, client/sampling). */
export const SAMPLING_REJECTED = { code: -1, message: 'User rejected sampling request' } as const;

export function serverAnswers(
  name: string,
  definition: MastraMCPServerDefinition,
  client: Pick<MCPClientOptions, 'sampling' | 'roots'>,
  log: (level: 'warning', message: string) => void,
): ServerAnswers {
  const sampling = definition.sampling ?? client.sampling;
  const roots = definition.roots ?? client.roots;
  const declared = definition.capabilities ?? {};
  const missing = (capability: string, option: string, kind: string) =>
    mcpError(
      MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
      `capabilities.${capability} is declared for server '${name}' but no ${kind} is configured; add ${option} to the server or the client, or remove it`,
      { server: name, field: `servers.${name}.capabilities.${capability}` },
    );
  if (declared.sampling && !sampling)
    throw missing('sampling', 'sampling: (a handler, an Agent or a model)', 'sampling handler');
  if (declared.roots && !roots) throw missing('roots', 'roots: (a list or a function)', 'roots list');
  const sampler = sampling ? new Sampler(name, sampling, declared.sampling?.tools !== undefined) : undefined;
  for (const extra of ['tools', 'context'] as const) {
    if (sampler && !sampler.byHandler && declared.sampling?.[extra])
      throw mcpError(
        MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
        `capabilities.sampling.${extra} is declared for server '${name}', but its sampling is answered by an agent or model, which ${extra === 'tools' ? 'cannot answer with tool calls' : 'shares no context'}; answer with a sampling handler, or remove it`,
        { server: name, field: `servers.${name}.capabilities.sampling.${extra}` },
      );
  }
  if (roots && typeof roots !== 'function') {
    const field = definition.roots ? `servers.${name}.roots` : 'roots';
    assertRoots(roots, field, 'MCPClient', name);
  }
  return {
    ...(sampler ? { sampler } : {}),
    ...(roots ? { roots: new ServerRoots(name, roots, declared.roots?.listChanged !== false, log) } : {}),
  };
}

/**
 * A failed sampling or roots answer as a 2025 server is told it: the spec's rejection (-1) for a
 * denial, -32602 for a request the client cannot answer, -32603 for everything else; a protocol
 * error a handler threw goes as it is.
 */
export function forLegacyServer(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const id = (error as { id?: unknown }).id;
  if (id === MCPErrorCode.CLIENT_SAMPLING_DENIED)
    return new ProtocolError(SAMPLING_REJECTED.code, SAMPLING_REJECTED.message);
  const code =
    id === MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED
      ? ProtocolErrorCode.InvalidParams
      : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, messageOf(error));
}
