// MCPClient reference (v2), "Schema-based input collection": an inputRequests handler that walks requestedSchema and prompts for each field.
import { MCPClient } from 'mastra-mcp';

// Assumed from the app:
declare function promptUser(field: {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}): Promise<string | number | boolean | null>;

// The page shows only the inputRequests property; the client and server definition around it are added.
const mcpClient = new MCPClient({
  servers: {
    interactiveServer: {
      url: new URL('http://localhost:3000/mcp'),
      inputRequests: async ({ params }) => {
        if (params.mode === 'url') return { action: 'decline' };

        const { properties, required = [] } = params.requestedSchema;
        const content: Record<string, string | number | boolean> = {};

        for (const [fieldName, fieldSchema] of Object.entries(properties)) {
          const value = await promptUser({
            name: fieldName,
            title: fieldSchema.title,
            description: fieldSchema.description,
            required: required.includes(fieldName),
          });

          if (value !== null) {
            content[fieldName] = value;
          }
        }

        return { action: 'accept', content };
      },
    },
  },
});
