/**
 * An MCPServerBase's metadata in the MCP Registry shapes (`Server`, `ServerDetail`) Mastra's
 * routes list; optional fields appear only when set.
 */
import type { MCPServerBase, ServerDetailInfo, ServerInfo } from '@mastra/core/mcp';

export function registryServerInfo(server: MCPServerBase): ServerInfo {
  const info: ServerInfo = {
    id: server.id,
    name: server.name,
    version_detail: { version: server.version, release_date: server.releaseDate, is_latest: server.isLatest },
  };
  if (server.description) info.description = server.description;
  if (server.repository) info.repository = server.repository;
  return info;
}

export function registryServerDetail(server: MCPServerBase): ServerDetailInfo {
  const detail: ServerDetailInfo = registryServerInfo(server);
  if (server.packageCanonical) detail.package_canonical = server.packageCanonical;
  if (server.packages) detail.packages = server.packages;
  if (server.remotes) detail.remotes = server.remotes;
  return detail;
}
