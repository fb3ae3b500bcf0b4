// MCPServer reference, "Elicitation Request Schema" (Example schema): a flat requestedSchema with string, number and boolean fields.
import type { ToolExecutionContext } from '@mastra/core/tools';

// Assumed from the app: the second argument of a tool's execute function.
declare const context: ToolExecutionContext;

const result = await context.mcp?.elicitation.sendRequest({
  message: 'Please tell us about yourself',
  requestedSchema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        title: 'Full Name',
        description: 'Your complete name',
      },
      age: {
        type: 'number',
        title: 'Age',
        minimum: 18,
        maximum: 120,
      },
      newsletter: {
        type: 'boolean',
        title: 'Subscribe to Newsletter',
        default: false,
      },
    },
    required: ['name'],
  },
});
