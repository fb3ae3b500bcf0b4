/**
 * One server's skills as the client holds them: the entries of its last `skills/list` (and those
 * fetched by URI with `skills/get`), the SDK's `SkillsClient` for every request (it checks entries
 * and verifies files), and the rules it leaves to hosts: a file that fails verification refreshes
 * its entry with `skills/get` once, entries over the extension's limits are refused, a listing is
 * bounded, and `resources/list_changed` is counted (a catalog built before a change is stale).
 */
import {
  SKILL_LIMITS,
  type Skill,
  SkillsClient,
  SkillVerificationError,
} from '@modelcontextprotocol/client/ext/skills';
import { MCPErrorCode, mcpError } from '../../errors.js';
import { addHandler, wrap } from '../actions.js';
import type { ServerConnection } from '../connection.js';
import { messageOf } from '../errors.js';
import { SkillFileCache } from './file-cache.js';
import type { MCPClientSkillEntry, MCPSkillFile } from './types.js';

const MANIFEST = '/SKILL.md';

/** The WHATWG form of a URI (how entries are compared), or the URI as given when it does not parse. */
export function canonical(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}

/** Why an entry is over the extension's per-skill limits, if it is. */
function overLimits(skill: Skill): string | undefined {
  if (skill.resources === 'dynamic') return undefined;
  const bytes = skill.resources.reduce((sum, file) => sum + file.size, 0);
  if (skill.resources.length > SKILL_LIMITS.files)
    return `it lists ${skill.resources.length} files, more than the extension's ${SKILL_LIMITS.files}`;
  if (bytes > SKILL_LIMITS.bytes)
    return `its files total ${bytes} bytes, more than the extension's ${SKILL_LIMITS.bytes}`;
  return undefined;
}

/** The error raised for a server without the extension: passed on as it is, never wrapped. */
const unsupported = (error: unknown) =>
  (error as { id?: unknown } | null)?.id === MCPErrorCode.CLIENT_SKILLS_NOT_SUPPORTED;

export class ServerSkills {
  /** Every entry known, by canonical `SKILL.md` URI: the last listing's, and those fetched by URI. */
  private readonly entries = new Map<string, Skill>();
  /** The URIs fetched with `skills/get`, kept when a new listing no longer has them. */
  private readonly fetched = new Set<string>();
  /** Listed since the last list change: a file's skill is looked up among the entries held. */
  private listed = false;
  private listing: Promise<Skill[]> | undefined;
  private watching: Promise<void> | undefined;
  /** Counts the server's resources list changes: a catalog built at an earlier count is stale. */
  changes = 0;

  constructor(
    private readonly connection: ServerConnection,
    private readonly cache: SkillFileCache,
    private readonly maxSkills: number,
  ) {}

  get name(): string {
    return this.connection.name;
  }

  /** Logged through the server's logger, naming it. */
  log(level: 'info' | 'warning' | 'error', message: string): void {
    this.connection.log(level, `MCP server '${this.name}': ${message}`);
  }

  private entry(skill: Skill): MCPClientSkillEntry {
    return { serverName: this.name, uri: skill.uri, skill };
  }

  /** Runs `operation` with a SkillsClient on the live SDK client; a server without the extension is named. */
  private withSkills<T>(
    method: string,
    operation: (skills: SkillsClient, options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.connection.run(
      async (client) => {
        const skills = new SkillsClient(client, { skipInvalid: true });
        if (!skills.supported) throw this.unsupported(method);
        return operation(skills, { timeout: this.connection.timeout, ...(signal ? { signal } : {}) });
      },
      null,
      signal,
    );
  }

  private unsupported(method: string) {
    return mcpError(
      MCPErrorCode.CLIENT_SKILLS_NOT_SUPPORTED,
      `MCP server '${this.name}' does not declare the Skills extension (io.modelcontextprotocol/skills), so ${method} cannot be used; a server that predates it may still list SKILL.md files in resources/list, which mcp.resources.read() reads unverified`,
      { server: this.name },
    );
  }

  /** `resources/list_changed` marks the listing stale; handlers registered once survive reconnects. */
  private watch(): Promise<void> {
    this.watching ??= addHandler(this.connection, this.connection.handlers.resourcesChanged, () => {
      this.listed = false;
      this.changes++;
    });
    return this.watching;
  }

  /**
   * The server's skills, from `skills/list` (every page; calls made meanwhile share it). A server
   * without the extension has none. Invalid entries and entries over the limits are left out,
   * each logged naming the server, the skill and why.
   */
  async list(signal?: AbortSignal): Promise<MCPClientSkillEntry[]> {
    this.listing ??= this.fetchListing(signal).finally(() => {
      this.listing = undefined;
    });
    return (await this.listing).map((skill) => this.entry(skill));
  }

  private async fetchListing(signal?: AbortSignal): Promise<Skill[]> {
    const client = await this.connection.get(signal);
    if (!new SkillsClient(client).supported) {
      this.listed = true;
      return [];
    }
    const listing = await this.withSkills(
      'skills/list',
      (skills, options) => skills.list({}, options),
      signal,
    ).catch((error) => {
      throw wrap(MCPErrorCode.CLIENT_LIST_SKILLS_FAILED, 'skills/list', this.connection, error);
    });
    const count = listing.skills.length + listing.invalid.length;
    if (count > this.maxSkills)
      throw mcpError(
        MCPErrorCode.CLIENT_LIST_SKILLS_FAILED,
        `MCP server '${this.name}' listed ${count} skills, more than the client holds for one server (the MCPClient option skills.maxSkills, ${this.maxSkills}); raise it if the server is trusted`,
        { server: this.name, count, maxSkills: this.maxSkills },
      );
    for (const refused of listing.invalid)
      this.log(
        'warning',
        `skill '${refused.uri ?? `#${refused.index}`}' left out: its skills/list entry is invalid: ${refused.reason}`,
      );
    const kept: Skill[] = [];
    for (const skill of listing.skills) {
      const over = overLimits(skill);
      if (over) this.log('warning', `skill '${skill.uri}' left out: ${over}`);
      else kept.push(skill);
    }
    await this.watch();
    // Skills the server no longer lists are forgotten, unless asked for by URI.
    for (const uri of this.entries.keys()) if (!this.fetched.has(uri)) this.entries.delete(uri);
    for (const skill of kept) this.entries.set(canonical(skill.uri), skill);
    this.listed = true;
    return kept;
  }

  /**
   * One skill by its `SKILL.md` URI (`skills/get`), listed or not; its entry replaces the one held,
   * and (`remember`) is kept when a later listing no longer has it.
   */
  async get(uri: string, remember = true): Promise<MCPClientSkillEntry> {
    const { skill } = await this.withSkills('skills/get', (skills, options) =>
      skills.get(uri, options),
    ).catch((error) => {
      throw unsupported(error)
        ? error
        : wrap(MCPErrorCode.CLIENT_GET_SKILL_FAILED, `skills/get for '${uri}'`, this.connection, error, {
            skill: uri,
          });
    });
    const over = overLimits(skill);
    if (over)
      throw mcpError(
        MCPErrorCode.CLIENT_GET_SKILL_FAILED,
        `MCP server '${this.name}': skill '${uri}' refused: ${over}`,
        { server: this.name, skill: uri },
      );
    this.entries.set(canonical(skill.uri), skill);
    if (remember) this.fetched.add(canonical(skill.uri));
    return this.entry(skill);
  }

  /**
   * The skill a file URI belongs to: a `SKILL.md` is its own skill's (fetched with `skills/get` when
   * not held); any other file belongs to the innermost skill held whose folder holds it.
   */
  private async owner(uri: string): Promise<Skill> {
    const file = canonical(uri);
    let unlisted: unknown;
    if (!this.listed)
      await this.list().catch((error) => {
        unlisted = error;
      });
    const own = this.entries.get(file);
    if (own) return own;
    if (file.endsWith(MANIFEST)) return (await this.get(uri)).skill;
    let best: Skill | undefined;
    let bestRoot = '';
    for (const [skillUri, skill] of this.entries) {
      const root = skillUri.slice(0, -MANIFEST.length + 1);
      if (file.startsWith(root) && root.length > bestRoot.length) [best, bestRoot] = [skill, root];
    }
    if (best) return best;
    throw mcpError(
      MCPErrorCode.CLIENT_READ_SKILL_FAILED,
      `MCP server '${this.name}': '${uri}' is not a file of any skill it lists${unlisted ? ` (its skills/list failed: ${messageOf(unlisted)})` : ''}; read a skill's files by the URIs its entry lists (mcp.skills.list() or mcp.skills.get())`,
      { server: this.name, uri },
    );
  }

  /** A file by URI, of whichever of the server's skills holds it. */
  async read(uri: string): Promise<MCPSkillFile> {
    return this.readFile(await this.owner(uri), uri);
  }

  /**
   * A file of `skill` (`ref`: a URI, or a path from the skill's folder; default its `SKILL.md`):
   * from the cache, or read and verified. A file that fails verification refreshes the entry with
   * `skills/get` once and is read against the new one; failing again, the error names the server,
   * the skill and the file.
   */
  async readFile(skill: Skill, ref?: string): Promise<MCPSkillFile> {
    const uri = canonical(new URL(ref ?? 'SKILL.md', canonical(skill.uri)).href);
    const cached = this.cached(skill, uri);
    if (cached) return cached;
    try {
      return this.keep(skill, await this.verified(skill, uri));
    } catch (error) {
      if (unsupported(error)) throw error;
      if (!(error instanceof SkillVerificationError)) throw this.readFailed(skill, uri, error);
      const fresh = await this.get(skill.uri, false).catch((refresh) => {
        throw this.readFailed(skill, uri, error, ` (refreshing the entry failed too: ${refresh.message})`);
      });
      try {
        return this.keep(fresh.skill, await this.verified(fresh.skill, uri));
      } catch (again) {
        throw this.readFailed(fresh.skill, uri, again, ' after its entry was refreshed with skills/get');
      }
    }
  }

  private async verified(skill: Skill, uri: string): Promise<MCPSkillFile> {
    const file = await this.withSkills('resources/read', (skills, options) =>
      skills.read(skill, uri, options),
    );
    return {
      serverName: this.name,
      skillUri: skill.uri,
      uri: file.uri,
      ...(file.mimeType !== undefined ? { mimeType: file.mimeType } : {}),
      bytes: file.bytes,
      ...(file.text !== undefined ? { text: file.text } : {}),
      verified: file.verified,
      ...(file.frontmatter ? { frontmatter: file.frontmatter, body: file.body ?? '' } : {}),
    };
  }

  private readFailed(skill: Skill, uri: string, error: unknown, after = '') {
    const verification = error instanceof SkillVerificationError;
    const what = verification ? `failed verification${after}` : `could not be read${after}`;
    return mcpError(
      MCPErrorCode.CLIENT_READ_SKILL_FAILED,
      `MCP server '${this.name}': skill '${skill.uri}': file '${uri}' ${what}: ${verification ? error.message : this.connection.describeFailure(error)}; it was not loaded`,
      {
        server: this.name,
        skill: skill.uri,
        uri,
        ...(verification ? { reason: error.reason } : {}),
      },
      error,
    );
  }

  /** The listed digest of `uri` in `skill`, when the skill has a manifest that lists it. */
  private digestOf(skill: Skill, uri: string): string | undefined {
    if (skill.resources === 'dynamic') return undefined;
    return skill.resources.find((file) => canonical(file.uri) === uri)?.digest;
  }

  private cached(skill: Skill, uri: string): MCPSkillFile | undefined {
    const digest = this.digestOf(skill, uri);
    return digest ? this.cache.get(SkillFileCache.key(this.name, uri, digest)) : undefined;
  }

  private keep(skill: Skill, file: MCPSkillFile): MCPSkillFile {
    const digest = file.verified ? this.digestOf(skill, canonical(file.uri)) : undefined;
    if (digest) this.cache.set(SkillFileCache.key(this.name, canonical(file.uri), digest), file);
    return file;
  }
}
