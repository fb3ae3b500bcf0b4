/**
 * `prompts/list` with each prompt's `version` kept. The SDK's Prompt schema has no `version`, so
 * its `listPrompts()` strips it, yet it is what `prompts.get({ version })` selects by. Pages are
 * validated with the SDK's own `ListPromptsResult` schema and walked here, bounded like the SDK's
 * walk (a page cap, a repeated cursor ends it).
 */
import type {
  Client,
  ListPromptsResult,
  RequestOptions,
  StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import type { MCPPrompt } from './types.js';

/** The most pages one listing reads: a server whose pagination never ends is refused. */
export const MAX_PROMPT_PAGES = 64;

type PromptPage = Omit<ListPromptsResult, 'prompts'> & { prompts: MCPPrompt[] };

/** The SDK's validation, then each validated prompt given back the string `version` it was sent with. */
const promptPage: StandardSchemaV1<unknown, PromptPage> = {
  '~standard': {
    version: 1,
    vendor: 'mastra-mcp',
    validate(value) {
      const result = specTypeSchemas.ListPromptsResult['~standard'].validate(value);
      if (result.issues) return result;
      const sent = (value as { prompts: unknown[] }).prompts;
      const prompts = result.value.prompts.map((prompt, index): MCPPrompt => {
        const version = (sent[index] as { version?: unknown }).version;
        return typeof version === 'string' ? { ...prompt, version } : prompt;
      });
      return { value: { ...result.value, prompts } };
    },
  },
};

export async function listVersionedPrompts(
  client: Client,
  params: { _meta: Record<string, unknown> },
  options: RequestOptions,
): Promise<MCPPrompt[]> {
  const prompts: MCPPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PROMPT_PAGES; page++) {
    const result = await client.request(
      { method: 'prompts/list', params: cursor === undefined ? params : { ...params, cursor } },
      promptPage,
      options,
    );
    prompts.push(...result.prompts);
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === cursor) return prompts;
    cursor = next;
  }
  throw new Error(`prompts/list did not end after ${MAX_PROMPT_PAGES} pages`);
}
