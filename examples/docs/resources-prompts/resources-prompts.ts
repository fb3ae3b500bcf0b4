import { MCPServer, type MCPServerPrompts, type MCPServerResources } from 'mastra-mcp';

const resources: MCPServerResources = {
  listResources: async () => [{ uri: 'file://notes/today.md', name: 'Today', mimeType: 'text/markdown' }],
  getResourceContent: async ({ uri }) => ({ text: `# Notes for ${uri}` }),
  resourceTemplates: async () => [{ uriTemplate: 'file://notes/{day}.md', name: 'Notes of a day' }],
  // completion/complete for template variables
  completeResourceTemplate: ({ argument }) =>
    ['monday', 'tuesday'].filter((day) => day.startsWith(argument.value)),
};

const prompts: MCPServerPrompts = {
  listPrompts: async () => [
    {
      name: 'review',
      version: 'v1',
      description: 'Review code',
      arguments: [{ name: 'code', required: true }],
    },
    {
      name: 'review',
      version: 'v2',
      description: 'Review code strictly',
      arguments: [{ name: 'code', required: true }],
    },
  ],
  getPromptMessages: async ({ name, version, args }) => {
    const prompt = (await prompts.listPrompts()).find(
      (p) => p.name === name && p.version === (version ?? 'v1'),
    );
    if (!prompt) throw new Error(`Unknown prompt ${name}@${version}`);
    return { prompt, messages: [{ role: 'user', content: { type: 'text', text: `Review: ${args.code}` } }] };
  },
  completePromptArgument: ({ argument }) =>
    ['const', 'let'].filter((word) => word.startsWith(argument.value)),
};

export const notes = new MCPServer({ name: 'Notes', version: '1.0.0', tools: {}, resources, prompts });

// Later, when something changes:
await notes.resources.notifyUpdated({ uri: 'file://notes/today.md' }); // only subscribers of that URI
await notes.resources.notifyListChanged();
await notes.prompts.notifyListChanged();
await notes.sendLoggingMessage({ level: 'info', data: 'notes synced' }); // honours each client's level
