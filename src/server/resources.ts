/**
 * `resources/*` and resource-template completion: the `appResources` (MCP Apps), the `skills`'
 * files (the Skills extension: every SKILL.md listed, every file readable, so hosts that predate the
 * extension reach them too) and the user's MCPServerResources callbacks, in that order. An app
 * resource or skill file wins over a user resource with the same URI: it is listed once and its
 * content is what a read returns. A callback that throws is a CallbackError naming the URI (a
 * failed read answers as not found), so `redactErrors` can keep its reason private.
 */
import {
  type CompleteResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  ResourceNotFoundError,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import type { AppResourceSet } from './app-resources.js';
import { quoted } from './issues.js';
import { runCallback } from './request-errors.js';
import { skillsExtension } from './skills/handlers.js';
import type { SkillsService } from './skills/service.js';
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
    private readonly skills?: SkillsService,
  ) {}

  /** The extensions these resources carry, for `capabilities.extensions`; none: `undefined`. */
  extensions(): ServerCapabilities['extensions'] {
    if (!this.apps.size && !this.skills) return undefined;
    return { ...(this.apps.size ? this.apps.extensions() : {}), ...(this.skills ? skillsExtension() : {}) };
  }

  async list(): Promise<ListResourcesResult> {
    const [own, skills] = await Promise.all([this.listed(), this.skills?.listResources() ?? []]);
    const served = new Set(skills.map((resource) => resource.uri));
    const others = own.filter((resource) => !this.apps.has(resource.uri) && !served.has(resource.uri));
    return { resources: [...this.apps.list(), ...skills, ...others] };
  }

  async templates(): Promise<ListResourceTemplatesResult> {
    const config = this.config;
    const templates = config?.resourceTemplates;
    return {
      resourceTemplates: templates
        ? await runCallback('Listing resource templates failed', () => templates.call(config))
        : [],
    };
  }

  private async listed() {
    const config = this.config;
    return config ? await runCallback('Listing resources failed', () => config.listResources()) : [];
  }

  async read(uri: string): Promise<ReadResourceResult> {
    const app = this.apps.read(uri) ?? (await this.skills?.readResource(uri));
    if (app) return app;
    const config = this.config;
    if (!config) throw new ResourceNotFoundError(uri, `Resource ${quoted(uri)} is not served`);
    const content: MCPServerResourceContent | MCPServerResourceContent[] = await runCallback(
      `Resource ${quoted(uri)} could not be read`,
      () => config.getResourceContent({ uri }),
      (message) => new ResourceNotFoundError(uri, message),
    );
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
    const listed = await this.listed();
    return listed.find((resource) => resource.uri === uri)?.mimeType;
  }

  async complete(
    uriTemplate: string,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    const complete = this.config?.completeResourceTemplate;
    if (!complete) return toCompleteResult(undefined);
    return toCompleteResult(
      await runCallback(`Completing resource template ${quoted(uriTemplate)} failed`, () =>
        complete({ uriTemplate, argument, context }),
      ),
    );
  }
}
