/**
 * What MCPClient calls one server's tools, and which of them it shows. A tool's key in the flat
 * `listTools()` map is `<prefix><separator><tool>`: the prefix is the server's name unless its
 * `toolPrefix` says otherwise (`''`: the tool's own name), the separator the client's
 * `toolNameSeparator` (`_`). Keys become the tool names an Agent sends model providers, so they are
 * made valid under the strictest common rule, OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`:
 * any other character becomes `_`, and a key over 64 characters keeps its start and ends with a
 * hash of the whole key, so that distinct long keys stay distinct. `includeTools` and
 * `excludeTools` match the server's own tool names, exactly or with `*` wildcards, and decide
 * what every listing shows (listTools, listToolsets, definitions, catalogs, proxies).
 */
import { createHash } from 'node:crypto';
import { MCPErrorCode, mcpError } from '../../errors.js';

export const DEFAULT_TOOL_NAME_SEPARATOR = '_';
/** The longest tool name OpenAI and Anthropic accept. */
export const MAX_TOOL_KEY_LENGTH = 64;
const NAME_CHARACTERS = /^[a-zA-Z0-9_-]*$/;
const OTHER_CHARACTERS = /[^a-zA-Z0-9_-]/gu;
const HASH_LENGTH = 8;

/** The naming options of a server definition. */
export interface ToolNamingOptions {
  toolPrefix?: string;
  includeTools?: string[];
  excludeTools?: string[];
}

/** `*` matches any run of characters. Linear-time per fixed piece, so no tool name can stall it. */
function globMatches(pattern: string, name: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === name;
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last))
    return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** The client's `toolNameSeparator`, checked: a key must stay a valid tool name. */
export function toolNameSeparator(separator: unknown): string {
  if (separator === undefined) return DEFAULT_TOOL_NAME_SEPARATOR;
  if (typeof separator !== 'string' || separator === '' || !NAME_CHARACTERS.test(separator))
    throw mcpError(
      MCPErrorCode.CLIENT_INVALID_OPTION,
      `MCPClient option 'toolNameSeparator' must be a non-empty string of letters, digits, '_' or '-' (model providers accept no other characters in tool names), not ${JSON.stringify(separator)}`,
      { field: 'toolNameSeparator' },
    );
  return separator;
}

function invalid(server: string, option: string, requirement: string): never {
  throw mcpError(
    MCPErrorCode.CLIENT_INVALID_SERVER_CONFIG,
    `MCP server '${server}': '${option}' ${requirement}`,
    { server, field: option },
  );
}

function patternList(server: string, option: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && entry !== ''))
    invalid(server, option, "must be an array of tool names (non-empty strings; '*' matches any characters)");
  return value;
}

export class ServerToolNames {
  private readonly prefix: string;
  private readonly include: string[] | undefined;
  private readonly exclude: string[] | undefined;

  constructor(
    serverName: string,
    options: ToolNamingOptions,
    private readonly separator: string,
  ) {
    const { toolPrefix } = options;
    if (toolPrefix !== undefined && (typeof toolPrefix !== 'string' || !NAME_CHARACTERS.test(toolPrefix)))
      invalid(
        serverName,
        'toolPrefix',
        "must be a string of letters, digits, '_' or '-' (model providers accept no other characters in tool names); '' keys tools by their own names",
      );
    this.prefix = toolPrefix ?? serverName;
    this.include = patternList(serverName, 'includeTools', options.includeTools);
    this.exclude = patternList(serverName, 'excludeTools', options.excludeTools);
  }

  /** The tool's key in the flat map: always a valid tool name for model providers. */
  key(toolName: string): string {
    const whole = this.prefix === '' ? toolName : `${this.prefix}${this.separator}${toolName}`;
    const valid = whole.replace(OTHER_CHARACTERS, '_');
    if (valid.length <= MAX_TOOL_KEY_LENGTH) return valid;
    const hash = createHash('sha256').update(whole).digest('hex').slice(0, HASH_LENGTH);
    return `${valid.slice(0, MAX_TOOL_KEY_LENGTH - HASH_LENGTH - 1)}_${hash}`;
  }

  /** Whether the client shows this tool: named by `includeTools` (when given), not by `excludeTools`. */
  shows(toolName: string): boolean {
    if (this.include && !this.include.some((pattern) => globMatches(pattern, toolName))) return false;
    return !this.exclude?.some((pattern) => globMatches(pattern, toolName));
  }

  /** The `includeTools` entries none of `toolNames` matches: most likely misspelled. */
  unmatchedIncludes(toolNames: string[]): string[] {
    return (this.include ?? []).filter((pattern) => !toolNames.some((name) => globMatches(pattern, name)));
  }
}
