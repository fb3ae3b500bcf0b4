/**
 * Every published skill at one moment, with the lookups the handlers make: entries sorted by URI
 * (the order `skills/list` pages in), skills and files by canonical URI, and the direct children of
 * every folder of a skill that publishes its files. A set is never changed: a reload builds a new
 * one, so a request sees one consistent set. Two skills at one URI are refused, unless they are
 * the same skill reached twice (a folder also listed by an agent).
 */
import {
  DIRECTORY_MIME_TYPE,
  type DirectoryResource,
  type Skill,
} from '@modelcontextprotocol/core/ext/skills';
import { ProtocolError, ProtocolErrorCode, type Resource } from '@modelcontextprotocol/server';
import { decodeListCursor, encodeListCursor } from '../events/cursor.js';
import type { PublishedFile, PublishedSkill } from './build.js';
import { skillError } from './plan.js';
import { safeSegments } from './trees.js';
import { canonical, SKILL_FILE } from './uris.js';

/** The folder of a skill: its SKILL.md URI without `/SKILL.md`. */
const rootOf = (skill: PublishedSkill) => skill.entry.uri.slice(0, -(SKILL_FILE.length + 1));

/** One page of `items` after `cursor` (an offset this server issued): -32602 for any other cursor. */
export function pageOf<T>(items: readonly T[], cursor: string | undefined, size: number) {
  const start = cursor === undefined ? 0 : decodeListCursor(cursor);
  if (start === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
  const end = start + size;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: encodeListCursor(end) } : {}),
  };
}

export class SkillSet {
  readonly entries: Skill[];
  readonly listed: Resource[];
  readonly published: readonly PublishedSkill[];
  private readonly skills = new Map<string, PublishedSkill>();
  /** Every published file by canonical URI (a nested skill's once). */
  readonly files = new Map<string, PublishedFile>();
  private readonly folders = new Map<string, Map<string, DirectoryResource>>();

  constructor(serverId: string, published: readonly PublishedSkill[]) {
    for (const skill of published) {
      const key = canonical(skill.entry.uri) as string;
      const other = this.skills.get(key);
      if (other && other.identity !== skill.identity) {
        throw skillError(
          serverId,
          skill.entry.frontmatter.name,
          `is published twice at ${key} (${other.root.origin} and ${skill.root.origin}): give one of them another folder name, or a prefix of its own`,
        );
      }
      if (!other) this.addSkill(key, skill);
    }
    this.published = [...this.skills.values()].sort((a, b) => compare(a.entry.uri, b.entry.uri));
    this.entries = this.published.map((skill) => skill.entry);
    this.listed = this.published.map((skill) => skill.listed);
  }

  private addSkill(key: string, skill: PublishedSkill): void {
    this.skills.set(key, skill);
    const root = rootOf(skill);
    if (!skill.root.dynamic) this.folder(root);
    for (const file of skill.files) {
      const uri = canonical(file.uri) as string;
      this.files.set(uri, file);
      // Every folder from the skill's own down to the file's lists its child on the way.
      const segments = uri.slice(root.length + 1).split('/');
      let parent = root;
      for (const [index, segment] of segments.entries()) {
        const child = `${parent}/${segment}`;
        const name = decodeURIComponent(segment);
        const last = index === segments.length - 1;
        this.folder(parent).set(
          child,
          last
            ? { uri: child, name, mimeType: file.mimeType, size: file.size }
            : { uri: child, name, mimeType: DIRECTORY_MIME_TYPE },
        );
        if (!last) this.folder(child);
        parent = child;
      }
    }
  }

  private folder(uri: string): Map<string, DirectoryResource> {
    let children = this.folders.get(uri);
    if (!children) {
      children = new Map();
      this.folders.set(uri, children);
    }
    return children;
  }

  skill(uri: string): PublishedSkill | undefined {
    const key = canonical(uri);
    return key === undefined ? undefined : this.skills.get(key);
  }

  file(uri: string): PublishedFile | undefined {
    const key = canonical(uri);
    return key === undefined ? undefined : this.files.get(key);
  }

  /** The direct children of a folder of a skill, sorted by URI; `undefined` when `uri` is not one. */
  directory(uri: string): DirectoryResource[] | undefined {
    const key = canonical(uri);
    const children = key === undefined ? undefined : this.folders.get(key);
    return children && [...children.values()].sort((a, b) => compare(a.uri, b.uri));
  }

  /** The dynamic skill whose folder holds `uri`, and the path in its tree (checked to stay inside). */
  dynamicAt(uri: string): { skill: PublishedSkill; path: string } | undefined {
    const key = canonical(uri);
    if (key === undefined) return undefined;
    for (const skill of this.published) {
      const root = canonical(rootOf(skill)) as string;
      if (!skill.root.dynamic || (key !== root && !key.startsWith(`${root}/`))) continue;
      const decoded =
        key === root
          ? []
          : key
              .slice(root.length + 1)
              .split('/')
              .map(decodeSegment);
      // A decoded segment holding a `/` would be two folders on the storage side.
      if (decoded.some((segment) => segment.includes('/'))) return undefined;
      const inside = decoded.join('/');
      if (safeSegments(inside) === undefined) return undefined;
      return {
        skill,
        path: skill.dir === '' ? inside : inside === '' ? skill.dir : `${skill.dir}/${inside}`,
      };
    }
    return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '..';
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
