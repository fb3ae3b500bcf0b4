import { MastraFGAPermissions } from '@mastra/core/auth/ee';
import { createTool } from '@mastra/core/tools';
import { MCPServer } from 'mastra-mcp';
import { z } from 'zod';

const getUserData = createTool({
  id: 'getUserData',
  description: "Reads the caller's data.",
  inputSchema: z.object({}),
  execute: async (_input, context) => ({ user: context?.requestContext?.get('user') }),
});

// Registered on a Mastra instance whose server config has an FGA provider
// (`new Mastra({ server: { fga }, mcpServers: { account } })`), tools/list shows only the tools the
// caller may call and tools/call refuses the others.
export const account = new MCPServer({
  id: 'account',
  name: 'Account',
  version: '1.0.0',
  tools: { getUserData },
  // req.auth (from createOAuthMiddleware or your own) -> requestContext.get('user')
  mapAuthInfoToUser: ({ authInfo }) => {
    const subject = (authInfo as { extra?: { subject?: string } }).extra?.subject;
    return subject ? { id: subject } : null;
  },
  // Optional: authorize MCP tool access differently from internal tool execution.
  fga: {
    resourceMapping: {
      tool: { fgaResourceType: 'user', deriveId: ({ user }) => (user as { id: string }).id },
    },
    permissionMapping: { [MastraFGAPermissions.TOOLS_EXECUTE]: 'read' },
  },
});
