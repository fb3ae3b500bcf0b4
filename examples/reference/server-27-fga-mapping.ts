// MCPServer reference, "Scope MCP tool FGA separately": fga.resourceMapping and fga.permissionMapping for tools/list and tools/call.
import { MastraFGAPermissions } from '@mastra/core/auth/ee';
import type { Tool } from '@mastra/core/tools';
import { MCPServer } from 'mastra-mcp';

// Assumed from the app:
declare const getUserData: Tool;

const server = new MCPServer({
  id: 'my-server',
  name: 'My Server',
  version: '1.0.0',
  tools: { getUserData },
  mapAuthInfoToUser: ({ authInfo }) => {
    const user = authInfo as {
      extra?: {
        userId?: string;
        organizationMembershipId?: string;
      };
    };

    if (!user.extra?.userId) {
      return null;
    }

    return {
      id: user.extra.userId,
      organizationMembershipId: user.extra.organizationMembershipId,
    };
  },
  fga: {
    resourceMapping: {
      tool: {
        fgaResourceType: 'user',
        deriveId: ({ user }) => (user as { id: string }).id,
      },
    },
    permissionMapping: {
      [MastraFGAPermissions.TOOLS_EXECUTE]: 'read',
    },
  },
});
