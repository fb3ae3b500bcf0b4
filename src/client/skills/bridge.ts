/** The Mastra bridge, loaded with the first toMastraSkills() (it loads Mastra's Workspace). */
export { MCPWorkspaceSkills } from './mastra-skills.js';
export { MCPSkillsWorkspace } from './workspace.js';
