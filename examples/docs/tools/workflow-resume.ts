import { Mastra } from '@mastra/core/mastra';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { MCPClient, MCPServer } from 'mastra-mcp';
import { z } from 'zod';

// A step that waits for someone: it suspends until it is resumed with an approver
const approve = createStep({
  id: 'approve',
  inputSchema: z.object({ amount: z.number() }),
  outputSchema: z.object({ paid: z.number(), approvedBy: z.string() }),
  suspendSchema: z.object({ reason: z.string() }), // `reason` (or `message`) is the question asked
  resumeSchema: z.object({ approver: z.string().describe('Who approves') }), // the form the caller fills
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return await suspend({ reason: `Approve a payment of ${inputData.amount}?` });
    return { paid: inputData.amount, approvedBy: resumeData.approver };
  },
});

const payment = createWorkflow({
  id: 'payment',
  description: 'Pays an amount once someone approves it',
  inputSchema: z.object({ amount: z.number() }),
  outputSchema: z.object({ paid: z.number(), approvedBy: z.string() }), // run_payment's outputSchema
})
  .then(approve)
  .commit();

// Runs resume from their snapshot: register the workflow on a Mastra instance with storage
new Mastra({ workflows: { payment } });

// Publishes run_payment, and resume_payment (a step declares a suspend or resume schema)
export const server = new MCPServer({
  name: 'Payments',
  version: '1.0.0',
  tools: {},
  workflows: { payment },
});

// A client that can be asked: the step's question (its `reason`, its resume schema) arrives as an
// input request, and the answer resumes the run; run_payment then answers { paid, approvedBy }.
// A caller that cannot be asked gets an error result naming resume_payment and its arguments
// ({ runId, step, resumeData }); calling resume_payment continues the run.
export const client = new MCPClient({
  servers: {
    payments: {
      url: new URL('http://127.0.0.1:3000/mcp'),
      inputRequests: async () => ({ action: 'accept', content: { approver: 'Ada' } }),
    },
  },
});
