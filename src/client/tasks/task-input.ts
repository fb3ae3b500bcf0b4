/**
 * One input request of a task answered by what answers its kind on this connection: elicitation
 * by the `inputRequests` handler, sampling by the sampler, roots by the server's roots. The SDK
 * does this for `input_required` results; a task's requests arrive in `tasks/get`, so the client
 * dispatches them itself, checking a sampling request's shape as the SDK would.
 */
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { MCPErrorCode, mcpError } from '../../errors.js';
import type { TaskInputRequest } from '../../shared/tasks-wire.js';
import type { ServerConnection } from '../connection.js';
import type { MCPInputRequest } from '../types.js';

const ANSWERED_BY: Readonly<Record<string, string>> = {
  'elicitation/create': 'inputRequests handler',
  'sampling/createMessage': 'sampling option',
  'roots/list': 'roots option',
};

export async function answerTaskInput(
  connection: ServerConnection,
  key: string,
  request: TaskInputRequest,
  signal: AbortSignal,
  label: string,
): Promise<unknown> {
  const { sampler, roots } = connection.answers;
  const handler = connection.inputRequests;
  const details = { server: connection.name, key, method: request.method };
  if (request.method === 'sampling/createMessage' && sampler) {
    const params = specTypeSchemas.CreateMessageRequestParams['~standard'].validate(request.params ?? {});
    if (params.issues)
      throw mcpError(
        MCPErrorCode.CLIENT_SAMPLING_FAILED,
        `${label} sent a sampling request that is not one (${params.issues[0]?.message ?? 'invalid'})`,
        details,
      );
    return sampler.answer(params.value, signal);
  }
  if (request.method === 'roots/list' && roots) return { roots: await roots.list(signal) };
  if (request.method === 'elicitation/create' && handler)
    return handler({ key, params: request.params as MCPInputRequest['params'], signal });
  const missing = ANSWERED_BY[request.method];
  throw missing
    ? mcpError(
        MCPErrorCode.CLIENT_TASK_INPUT_UNANSWERED,
        `${label} asks for input (${request.method}), but server '${connection.name}' has no ${missing} to answer it`,
        details,
      )
    : mcpError(
        MCPErrorCode.CLIENT_INPUT_REQUEST_UNSUPPORTED,
        `${label} asks for input of a kind MCPClient does not answer (${request.method})`,
        details,
      );
}
