/**
 * SkillsService: MCPServer's `skills` option at run time. Loading starts in the constructor (the
 * heavy modules import then, load.ts) and nothing of the skills is served before it ends: a
 * failure is logged once, rejects `ready()` with the error naming the skill, and answers every
 * skills request -32603. Folders on disk are watched; a changed root is published again as a whole
 * (all or nothing: on failure the previous skills stay, and a read of a file that no longer
 * matches its digest is refused, never served). Clients are told: `resources/list_changed` when
 * the list of SKILL.md resources changes, `resources/updated` for each changed file.
 */
import type { IMastraLogger } from '@mastra/core/logger';
import {
  DIRECTORY_MIME_TYPE,
  type DirectoryResource,
  SKILL_LIMITS,
} from '@modelcontextprotocol/core/ext/skills';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { lazyModule } from '../../shared/lazy-module.js';
import { boundedLogLine } from '../error-echo.js';
import { quoted } from '../issues.js';
import type { PublishedFile, PublishedSkill } from './build.js';
import { contentsOf, matches } from './contents.js';
import { mimeTypeOf } from './mime.js';
import type { SkillsPlan } from './plan.js';
import type { SkillRoot } from './roots.js';
import { SkillSet } from './skill-set.js';
import type { MCPServerSkillsApi } from './types.js';
import { canonical, SKILL_SCHEME } from './uris.js';
import { watchFolder } from './watch.js';

const loadPublishing = lazyModule(() => import('./load.js'));

/** What the service needs of its server. */
export interface SkillsHost {
  logger(): IMastraLogger;
  listChanged(): Promise<void>;
  updated(uri: string): Promise<void>;
}

export class SkillsService {
  readonly api: MCPServerSkillsApi;
  private readonly loaded: Promise<void>;
  private set: SkillSet | undefined;
  private roots: SkillRoot[] = [];
  private byRoot: PublishedSkill[][] = [];
  /** Loads and reloads, one after another. */
  private queue: Promise<void> = Promise.resolve();
  private unwatch: Array<() => void> = [];
  private closed = false;

  constructor(
    readonly plan: SkillsPlan,
    private readonly host: SkillsHost,
  ) {
    this.loaded = this.serial(() => this.publishAll());
    this.loaded.catch((error: Error) => this.log('error', error.message));
    this.api = {
      // A first load that failed is over once a refresh() succeeds.
      ready: async () => {
        if (!this.set) await this.loaded;
      },
      list: async () => {
        if (!this.set) await this.loaded;
        return [...(this.set as SkillSet).entries];
      },
      refresh: () => this.serial(() => this.publishAll()),
    };
  }

  private log(level: 'error' | 'warn', message: string): void {
    this.host.logger()[level](boundedLogLine(message));
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Every root found and published again (agents may list other skills now); then swapped in at once. */
  private async publishAll(): Promise<void> {
    const { rootsOf, publishRoot } = await loadPublishing();
    const roots = await rootsOf(this.plan);
    const byRoot: PublishedSkill[][] = [];
    for (const root of roots) byRoot.push(await publishRoot(this.plan, root));
    await this.swap(new SkillSet(this.plan.serverId, byRoot.flat()), roots, byRoot);
    this.watch();
  }

  /** One root published again after a change (watched, or seen on a read). */
  private reload(root: SkillRoot): Promise<void> {
    return this.serial(async () => {
      const index = this.roots.indexOf(root);
      if (index === -1 || this.closed) return;
      const { publishRoot } = await loadPublishing();
      const byRoot = this.byRoot.with(index, await publishRoot(this.plan, root));
      await this.swap(new SkillSet(this.plan.serverId, byRoot.flat()), this.roots, byRoot);
    }).catch((error: Error) => this.log('error', `${error.message} (the skills published before stay)`));
  }

  private async swap(next: SkillSet, roots: SkillRoot[], byRoot: PublishedSkill[][]): Promise<void> {
    const previous = this.set;
    this.set = next;
    this.roots = roots;
    this.byRoot = byRoot;
    if (!previous) return;
    const listing = (set: SkillSet) =>
      JSON.stringify(set.listed.map(({ uri, name, description }) => [uri, name, description]));
    if (listing(previous) !== listing(next)) await this.host.listChanged();
    for (const uri of new Set([...previous.files.keys(), ...next.files.keys()])) {
      if (previous.files.get(uri)?.digest !== next.files.get(uri)?.digest) await this.host.updated(uri);
    }
  }

  private watch(): void {
    for (const stop of this.unwatch) stop();
    this.unwatch = [];
    if (this.closed) return;
    for (const root of this.roots) {
      if (root.folder === undefined) continue;
      const folder = root.folder;
      this.unwatch.push(
        watchFolder(
          folder,
          () => void this.reload(root),
          (error) =>
            this.log(
              'warn',
              `MCP server '${this.plan.serverId}': stopped watching ${folder}: ${error.message}`,
            ),
        ),
      );
    }
  }

  /** The skills as published now; -32603 when they could not be loaded. */
  async current(): Promise<SkillSet> {
    if (this.set) return this.set;
    await this.loaded.catch(() => {});
    if (this.set) return this.set;
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `MCP server '${this.plan.serverId}': its skills could not be loaded; its log says why`,
    );
  }

  /** The SKILL.md resources; none while the skills could not be loaded, so other resources stay listed. */
  async listResources(): Promise<Resource[]> {
    if (!this.set) await this.loaded.catch(() => {});
    return this.set?.listed ?? [];
  }

  /** A skill file's contents; `undefined` when `uri` is none of the skills'. */
  async readResource(uri: string): Promise<ReadResourceResult | undefined> {
    if (!uri.startsWith(SKILL_SCHEME)) return undefined;
    const set = await this.current();
    const file = set.file(uri);
    if (file) return contentsOf(uri, file.mimeType, await this.verified(uri, file));
    const dynamic = set.dynamicAt(uri);
    if (!dynamic) return undefined;
    const { tree } = dynamic.skill.root;
    let bytes: Uint8Array;
    try {
      bytes = await tree.read(dynamic.path, SKILL_LIMITS.bytes);
    } catch (error) {
      throw new ResourceNotFoundError(
        uri,
        `Resource ${quoted(uri)} could not be read: ${(error as Error).message}`,
      );
    }
    return contentsOf(uri, (await tree.mimeType?.(dynamic.path)) ?? mimeTypeOf(dynamic.path), bytes);
  }

  /** The file's bytes as published; a file that changed is published again first, or refused. */
  private async verified(uri: string, file: PublishedFile): Promise<Uint8Array> {
    const bytes = await readOrUndefined(file);
    if (bytes && matches(bytes, file)) return bytes;
    await this.reload(file.root);
    const fresh = this.set?.file(uri);
    if (!fresh) throw new ResourceNotFoundError(uri, `Resource ${quoted(uri)} is no longer served`);
    const again = await readOrUndefined(fresh);
    if (again && matches(again, fresh)) return again;
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Resource ${quoted(uri)} changed and could not be published again; the server log says why`,
    );
  }

  /** The direct children of a skill folder; `undefined` when `uri` is not one. */
  async directory(uri: string): Promise<DirectoryResource[] | undefined> {
    const set = await this.current();
    const published = set.directory(uri);
    if (published) return published;
    const dynamic = set.dynamicAt(uri);
    const base = canonical(uri);
    if (!dynamic || base === undefined) return undefined;
    const entries = await dynamic.skill.root.tree.list(dynamic.path).catch(() => undefined);
    return entries
      ?.filter((entry) => entry.kind !== 'unsupported' && !entry.name.startsWith('.'))
      .map((entry) => {
        const child = `${base}/${encodeURIComponent(entry.name)}`;
        return entry.kind === 'directory'
          ? { uri: child, name: entry.name, mimeType: DIRECTORY_MIME_TYPE }
          : { uri: child, name: entry.name, mimeType: mimeTypeOf(entry.name), size: entry.size };
      })
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  close(): void {
    this.closed = true;
    for (const stop of this.unwatch) stop();
    this.unwatch = [];
  }
}

function readOrUndefined(file: PublishedFile): Promise<Uint8Array | undefined> {
  return file.root.tree.read(file.path, SKILL_LIMITS.bytes).catch(() => undefined);
}
