/**
 * `resources/*` and resource-template completion over the user's MCPServerResources callbacks.
 */
import {
  type CompleteResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
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
  constructor(private readonly config: MCPServerResources) {}

  async list(): Promise<ListResourcesResult> {
    return { resources: await this.config.listResources() };
  }

  async templates(): Promise<ListResourceTemplatesResult> {
    return { resourceTemplates: (await this.config.resourceTemplates?.()) ?? [] };
  }

  async read(uri: string): Promise<ReadResourceResult> {
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
    const listed = await this.config.listResources();
    return listed.find((resource) => resource.uri === uri)?.mimeType;
  }

  async complete(
    uriTemplate: string,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    const complete = this.config.completeResourceTemplate;
    return toCompleteResult(complete ? await complete({ uriTemplate, argument, context }) : undefined);
  }
}
