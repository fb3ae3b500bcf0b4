/** `@mastra/core`'s FGA checks, in a module of its own: fga.ts imports it on the first check (see shared/lazy-module.ts). */
export { getMCPToolFGAResourceId, MastraFGAPermissions, requireFGA } from '@mastra/core/auth/ee';
