// MCPClient reference (v2), "Dynamic approval with a function": requireToolApproval decides per call.
import { MCPClient } from 'mastra-mcp';

const mcp = new MCPClient({
  servers: {
    github: {
      url: new URL('http://localhost:3000/mcp'),
      requireToolApproval: ({ toolName, args, requestContext }) => {
        // Read-only tools don't need approval
        if (toolName === 'list_repos') return false;
        // Destructive tools with force flag always need approval
        if (toolName === 'delete_repo') return args.force === true;
        // Non-admin users need approval for everything else
        return requestContext?.userRole !== 'admin';
      },
    },
  },
});
