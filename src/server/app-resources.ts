/**
 * MCP Apps (SEP-1865): the `appResources` option served as `ui://` resources, and the tool
 * metadata that links a tool to one. Every entry is checked and every `htmlPath` read when the
 * MCPServer is constructed, so a bad entry or a missing file fails at startup, never on a host's
 * first `resources/read`; afterwards listing and reading are lookups in a map.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IMastraLogger } from '@mastra/core/logger';
import type { ReadResourceResult, Resource, ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../errors.js';
import type { AppResource, AppResources } from './types.js';

/** The MIME type of an MCP App's HTML (ext-apps' `RESOURCE_MIME_TYPE`). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's key in `capabilities.extensions` (ext-apps' `EXTENSION_ID`). */
export const MCP_APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The deprecated flat key older hosts read instead of `_meta.ui.resourceUri`. */
const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';
const UI_SCHEME = 'ui://';

type ResourceContent = ReadResourceResult['contents'][number];

function invalid(serverId: string, uri: string, problem: string, details: Record<string, string> = {}) {
  return mcpError(
    MCPErrorCode.SERVER_APP_RESOURCE_INVALID,
    `MCP server '${serverId}': app resource '${uri}' ${problem}`,
    { serverId, uri, ...details },
  );
}

function loadHtml(serverId: string, uri: string, app: AppResource): string {
  const inline = app.html !== undefined;
  if (inline === (app.htmlPath !== undefined)) {
    throw invalid(
      serverId,
      uri,
      inline
        ? 'sets both html and htmlPath: keep one of them'
        : 'needs html (inline HTML) or htmlPath (a file)',
    );
  }
  if (app.htmlPath === undefined) return app.html as string;
  const path = resolve(app.htmlPath);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(
      serverId,
      uri,
      `htmlPath '${path}' could not be read (${reason}): fix htmlPath or create the file`,
      {
        htmlPath: path,
      },
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The UI resource a tool's `_meta` links to, in either form. */
function linkedUri(meta: Record<string, unknown> | undefined): string | undefined {
  const nested = isRecord(meta?.ui) ? meta.ui.resourceUri : undefined;
  if (typeof nested === 'string') return nested;
  const flat = meta?.[FLAT_RESOURCE_URI_KEY];
  return typeof flat === 'string' ? flat : undefined;
}

/**
 * A tool's `_meta` with its UI link in both forms, as ext-apps' `registerAppTool` publishes it:
 * `_meta.ui.resourceUri` for current hosts and the flat `_meta['ui/resourceUri']` for older ones.
 * Two forms naming different resources are a configuration error.
 */
export function withUiLink(
  toolName: string,
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const uri = linkedUri(meta);
  if (!meta || uri === undefined) return meta;
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const flat = meta[FLAT_RESOURCE_URI_KEY];
  if (typeof flat === 'string' && flat !== uri) {
    throw mcpError(
      MCPErrorCode.SERVER_INVALID_TOOL,
      `Tool '${toolName}': _meta.ui.resourceUri ('${uri}') and _meta['${FLAT_RESOURCE_URI_KEY}'] ('${flat}') name different UI resources; set only _meta.ui.resourceUri`,
      { toolName },
    );
  }
  return { ...meta, ui: { ...ui, resourceUri: uri }, [FLAT_RESOURCE_URI_KEY]: uri };
}

/** The `appResources` option, validated and loaded: what `resources/list` and `resources/read` serve. */
export class AppResourceSet {
  private readonly apps = new Map<string, { listing: Resource; content: ResourceContent }>();

  constructor(
    private readonly serverId: string,
    config: AppResources = {},
  ) {
    for (const [uri, app] of Object.entries(config)) {
      if (!uri.startsWith(UI_SCHEME) || uri.length === UI_SCHEME.length) {
        throw invalid(
          serverId,
          uri,
          `is not a ui:// URI: appResources keys look like 'ui://calculator/main'`,
        );
      }
      if (typeof app?.name !== 'string' || !app.name.trim()) throw invalid(serverId, uri, 'needs a name');
      const text = loadHtml(serverId, uri, app);
      const meta = app.meta ? { _meta: { ui: app.meta } } : {};
      const description = app.description ? { description: app.description } : {};
      this.apps.set(uri, {
        listing: { uri, name: app.name, ...description, mimeType: MCP_APP_MIME_TYPE, ...meta },
        content: { uri, mimeType: MCP_APP_MIME_TYPE, text, ...meta },
      });
    }
  }

  get size(): number {
    return this.apps.size;
  }

  has(uri: string): boolean {
    return this.apps.has(uri);
  }

  list(): Resource[] {
    return [...this.apps.values()].map((app) => app.listing);
  }

  /** The `resources/read` result of an app resource, or undefined for any other URI. */
  read(uri: string): ReadResourceResult | undefined {
    const app = this.apps.get(uri);
    return app ? { contents: [app.content] } : undefined;
  }

  /** `capabilities.extensions` declaring MCP Apps with the one MIME type served. */
  extensions(): NonNullable<ServerCapabilities['extensions']> {
    return { [MCP_APPS_EXTENSION_ID]: { mimeTypes: [MCP_APP_MIME_TYPE] } };
  }

  /** Warns about tools linked to a UI resource that is not among these app resources. */
  warnUnserved(tools: Iterable<Tool>, logger: IMastraLogger): void {
    for (const tool of tools) {
      const uri = linkedUri(tool._meta);
      if (uri === undefined || this.apps.has(uri)) continue;
      logger.warn(
        `MCP server '${this.serverId}': tool '${tool.name}' links UI resource '${uri}', which is not in appResources; hosts cannot render it unless the resources callbacks serve it`,
      );
    }
  }
}
