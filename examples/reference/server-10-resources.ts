// MCPServer reference, "MCPServerResources Type" (Example): a server with resources, resource contents and resource templates.

import type { MCPServerResourceContent, MCPServerResources, Resource, ResourceTemplate } from 'mastra-mcp';
import { MCPServer } from 'mastra-mcp';

// Resources/resource templates will generally be dynamically fetched.
const myResources: Resource[] = [{ uri: 'file://data/123.txt', name: 'Data File', mimeType: 'text/plain' }];

const myResourceContents: Record<string, MCPServerResourceContent> = {
  'file://data.txt/123': { text: 'This is the content of the data file.' },
};

const myResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: 'file://data/{id}',
    name: 'Data File',
    description: 'A file containing data.',
    mimeType: 'text/plain',
  },
];

const myResourceHandlers: MCPServerResources = {
  listResources: async () => myResources,
  getResourceContent: async ({ uri }) => {
    if (myResourceContents[uri]) {
      return myResourceContents[uri];
    }
    throw new Error(`Resource content not found for ${uri}`);
  },
  resourceTemplates: async () => myResourceTemplates,
};

const serverWithResources = new MCPServer({
  id: 'resourceful-server',
  name: 'Resourceful Server',
  version: '1.0.0',
  tools: {
    /* ... your tools ... */
  },
  resources: myResourceHandlers,
});
