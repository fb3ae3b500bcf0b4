/**
 * Checks a client's answer to an elicitation a suspended tool or a task asked: an elicitation
 * result whose accepted content matches the requested schema. A bad answer is the caller's
 * mistake (-32602), named by tool and input key.
 */
import {
  type ElicitResult,
  fromJsonSchema,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { formatIssues } from './tool-schema.js';
import type { ElicitationRequest } from './types.js';

const elicitResultSchema = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

export function checkElicitAnswer(
  toolName: string,
  key: string,
  request: ElicitationRequest,
  response: unknown,
): ElicitResult {
  const parsed = elicitResultSchema.safeParse(response);
  if (!parsed.success) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${toolName}': inputResponses.${key} is not an elicitation result: ${parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    );
  }
  const result = parsed.data as ElicitResult;
  if (result.action === 'accept' && result.content) {
    const outcome = fromJsonSchema(request.requestedSchema)['~standard'].validate(result.content);
    if (!(outcome instanceof Promise) && outcome.issues) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${toolName}': inputResponses.${key} does not match the requested schema: ${formatIssues(outcome.issues).join('; ')}`,
      );
    }
  }
  return result;
}
