/**
 * MCPClient's tools reject arguments their input schema refuses with a MastraError
 * (MCP_CLIENT_INVALID_TOOL_ARGUMENTS: server, tool, field path, what was expected), like every
 * other failure, where Mastra's tool wrapper resolves to `{ error: true, message }`. Mastra's
 * wrapper still validates (with its coercions of what models send); a validation error it returns
 * is told apart from a server's result by identity: every value the tool's own execute produced
 * is remembered. An agent is unaffected: Mastra's tool builder validates before calling the tool
 * and hands the model its own message, which names the same fields (argument-issues.ts).
 */
import { isValidationError, type ValidationError } from '@mastra/core/tools';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { type ArgumentIssue, describeIssues, fieldOf } from './argument-issues.js';

type Execute = (input: unknown, context: unknown) => Promise<unknown>;
interface StandardSchema {
  '~standard': { validate(value: unknown): { issues?: readonly Partial<ArgumentIssue>[] } | object };
}

export class ArgumentGuard {
  private readonly produced = new WeakSet<object>();

  constructor(
    private readonly server: string,
    private readonly tool: string,
    private readonly inputSchema: StandardSchema,
  ) {}

  /**
   * Marks what the tool's own execute returns, so it is never taken for Mastra's validation error.
   * Only a value shaped like one needs remembering (the check below looks no further for others).
   */
  own<T>(value: T): T {
    if (isValidationError(value)) this.produced.add(value as object);
    return value;
  }

  /** Replaces Mastra's execute wrapper of `tool` with one that rejects invalid arguments. */
  guard<T extends object>(tool: T): T {
    const validated = (tool as { execute?: Execute }).execute;
    if (!validated) return tool;
    (tool as { execute: Execute }).execute = async (input, context) => {
      const result = await validated(input, context);
      if (isValidationError(result) && !this.produced.has(result)) throw this.invalid(input, result);
      return result;
    };
    return tool;
  }

  private invalid(input: unknown, refused: ValidationError) {
    const checked = this.inputSchema['~standard'].validate(input);
    const issues: ArgumentIssue[] = ('issues' in checked ? (checked.issues ?? []) : []).map((issue) => ({
      path: (issue.path ?? []).map(String),
      message: issue.message ?? 'invalid',
      ...(issue.expected !== undefined ? { expected: issue.expected } : {}),
    }));
    // Mastra checks what models send after a few coercions; the raw input may then pass here.
    const what = issues.length > 0 ? describeIssues(issues) : refused.message;
    const first = issues[0];
    return mcpError(
      MCPErrorCode.CLIENT_INVALID_TOOL_ARGUMENTS,
      `MCP tool '${this.tool}' on server '${this.server}': invalid arguments: ${what}; pass arguments that match the tool's inputSchema`,
      {
        server: this.server,
        tool: this.tool,
        ...(first ? { field: fieldOf(first), expected: first.expected } : {}),
        issues: what,
      },
    );
  }
}
