import type { MCPServerPrompts } from 'mastra-mcp';

export const briefingPrompts: MCPServerPrompts = {
  listPrompts: async () => [{ name: 'briefing', description: 'A briefing on a topic the user picks' }],
  getPromptMessages: async ({ name }, { mcp }) => {
    // On 2026-07-28 prompts/get answers input_required and the client's retry resumes this call;
    // a 2025 session gets an elicitation/create request.
    const answer = await mcp.elicitation.sendRequest({
      key: 'topic',
      message: 'Which topic?',
      requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    });
    const topic = answer.action === 'accept' ? String(answer.content?.topic) : 'anything';
    return {
      prompt: { name },
      messages: [{ role: 'user', content: { type: 'text', text: `Brief me on ${topic}.` } }],
    };
  },
};
