/**
 * The Skills extension's methods on one protocol instance: `skills/list` (paged, entries whole),
 * `skills/get` (-32602 for anything but a served skill's SKILL.md URI) and
 * `resources/directory/read` (declared as `directoryRead: true`). Results carry `ttlMs` and
 * `cacheScope` for 2026-07-28 clients, the revision that defines them. Skill files themselves are
 * read through `resources/read` (resources.ts asks the service).
 */
import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  RESOURCES_DIRECTORY_READ_METHOD,
  ReadResourceDirectoryRequestParamsSchema,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '@modelcontextprotocol/core/ext/skills';
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { quoted } from '../issues.js';
import { requestParams } from '../request-errors.js';
import type { SkillsService } from './service.js';
import { pageOf } from './skill-set.js';

/** The first revision whose results carry `ttlMs` and `cacheScope`. */
const CACHE_FIELDS_SINCE = '2026-07-28';

const listParams = requestParams(ListSkillsRequestParamsSchema);
const getParams = requestParams(GetSkillRequestParamsSchema);
const directoryParams = requestParams(ReadResourceDirectoryRequestParamsSchema);

/** `capabilities.extensions` declaring the extension, with the optional method served. */
export function skillsExtension(): NonNullable<ServerCapabilities['extensions']> {
  return { [SKILLS_EXTENSION_ID]: { directoryRead: true } };
}

export function attachSkills(server: Server, skills: SkillsService): void {
  const { pageSize, cache } = skills.plan;
  const cacheFields = (ctx: ServerContext) => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const revision =
      (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion();
    return revision !== undefined && revision >= CACHE_FIELDS_SINCE ? { ...cache } : {};
  };

  server.setRequestHandler(SKILLS_LIST_METHOD, { params: listParams }, async (params, ctx) => {
    const page = pageOf((await skills.current()).entries, params.cursor, pageSize);
    const more = page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
    return { skills: page.items, ...more, ...cacheFields(ctx) };
  });
  server.setRequestHandler(SKILLS_GET_METHOD, { params: getParams }, async (params, ctx) => {
    const skill = (await skills.current()).skill(params.uri);
    if (!skill)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${quoted(params.uri)}`);
    return { skill: skill.entry, ...cacheFields(ctx) };
  });
  server.setRequestHandler(
    RESOURCES_DIRECTORY_READ_METHOD,
    { params: directoryParams },
    async (params, ctx) => {
      const children = await skills.directory(params.uri);
      if (!children) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${quoted(params.uri)} is not a directory resource`,
        );
      }
      const page = pageOf(children, params.cursor, pageSize);
      const more = page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
      return { resources: page.items, ...more, ...cacheFields(ctx) };
    },
  );
}
