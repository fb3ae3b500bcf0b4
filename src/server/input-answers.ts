/**
 * Checks a client's answer to an input request a suspended call, prompt or task asked (the
 * retry's `inputResponses`, a task's `tasks/update`): an elicitation result whose accepted content
 * matches the requested schema, a sampling result (with tool use when tools were offered), a roots
 * list. A bad answer is the caller's mistake (-32602), named by what asked and the input key.
 */
import {
  fromJsonSchema,
  ProtocolError,
  ProtocolErrorCode,
  type StandardSchemaV1Sync,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { formatIssues } from '../shared/schema-issues.js';
import { type InputAnswer, type InputRequest, type InputTarget, targetLabel } from './input-requests.js';

/** The shape an answer to each kind must have, and what the error calls it. */
function expected(request: InputRequest): { schema: StandardSchemaV1Sync; noun: string } {
  switch (request.method) {
    case 'elicitation/create':
      return { schema: specTypeSchemas.ElicitResult, noun: 'an elicitation result' };
    case 'sampling/createMessage':
      return {
        schema:
          request.params.tools || request.params.toolChoice
            ? specTypeSchemas.CreateMessageResultWithTools
            : specTypeSchemas.CreateMessageResult,
        noun: 'a sampling result (CreateMessageResult)',
      };
    case 'roots/list':
      return { schema: specTypeSchemas.ListRootsResult, noun: 'a roots list (ListRootsResult)' };
  }
}

export function checkAnswer(
  target: InputTarget,
  key: string,
  request: InputRequest,
  response: unknown,
): InputAnswer {
  const { schema, noun } = expected(request);
  const parsed = schema['~standard'].validate(response);
  if (parsed.issues) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${targetLabel(target)}: inputResponses.${key} is not ${noun}: ${formatIssues(parsed.issues).join('; ')}`,
    );
  }
  const answer = parsed.value as InputAnswer;
  if (
    request.method === 'elicitation/create' &&
    'action' in answer &&
    answer.action === 'accept' &&
    answer.content
  ) {
    const outcome = fromJsonSchema(request.params.requestedSchema)['~standard'].validate(answer.content);
    if (!(outcome instanceof Promise) && outcome.issues) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${targetLabel(target)}: inputResponses.${key} does not match the requested schema: ${formatIssues(outcome.issues).join('; ')}`,
      );
    }
  }
  return answer;
}
