/**
 * `resources/*` and resource-template completion: the `appResources` (MCP Apps) plus the user's
 * MCPServerResources callbacks. An app resource wins over a user resource with the same URI: it is
 * listed once and its HTML is what a read returns.
 */
import {
  type CompleteResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import type { AppResourceSet } from './app-resources.js';
import type { MCPServerCompletion, MCPServerResourceContent, MCPServerResources } from './types.js';

/** The protocol caps one completion answer at 100 values. */
const MAX_COMPLETION_VALUES = 100;

export function toCompleteResult(completion: MCPServerCompletion | undefined): CompleteResult {
  if (!completion) return { completion: { values: [] } };
  if (!Array.isArray(completion)) return { completion };
  return {
    completion: {
      values: completion.slice(0, MAX_COMPLETION_VALUES),
      total: completion.length,
      hasMore: completion.length > MAX_COMPLETION_VALUES,
    },
  };
}

export class ResourceHandlers {
  constructor(
    private readonly config: MCPServerResources | undefined,
    readonly apps: AppResourceSet,
  ) {}

  async list(): Promise<ListResourcesResult> {
    const own = (await this.config?.listResources()) ?? [];
    return { resources: [...this.apps.list(), ...own.filter((resource) => !this.apps.has(resource.uri))] };
  }

  async templates(): Promise<ListResourceTemplatesResult> {
    return { resourceTemplates: (await this.config?.resourceTemplates?.()) ?? [] };
  }

  async read(uri: string): Promise<ReadResourceResult> {
    const app = this.apps.read(uri);
    if (app) return app;
    if (!this.config) throw new ResourceNotFoundError(uri, `Resource '${uri}' is not among the appResources`);
    let content: MCPServerResourceContent | MCPServerResourceContent[];
    try {
      content = await this.config.getResourceContent({ uri });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ResourceNotFoundError(uri, `Resource '${uri}' could not be read: ${reason}`);
    }
    const items = Array.isArray(content) ? content : [content];
    const listedMimeType = items.some((item) => !item.mimeType) ? await this.mimeTypeOf(uri) : undefined;
    return {
      contents: items.map((item) => {
        const mimeType = item.mimeType ?? listedMimeType;
        const base = mimeType ? { uri, mimeType } : { uri };
        if ('blob' in item && typeof item.blob === 'string') return { ...base, blob: item.blob };
        return { ...base, text: 'text' in item && typeof item.text === 'string' ? item.text : '' };
      }),
    };
  }

  private async mimeTypeOf(uri: string): Promise<string | undefined> {
    const listed = (await this.config?.listResources()) ?? [];
    return listed.find((resource) => resource.uri === uri)?.mimeType;
  }

  async complete(
    uriTemplate: string,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    const complete = this.config?.completeResourceTemplate;
    return toCompleteResult(complete ? await complete({ uriTemplate, argument, context }) : undefined);
  }
}
