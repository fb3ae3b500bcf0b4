/**
 * What loads with the first skill: the roots of a plan and the skills published from each. This
 * module (with the SDK's skills module and Mastra's skills entry behind it) is imported by the
 * first load, so a server without `skills` never loads it (shared/lazy-module.ts).
 */
import { MastraError } from '@mastra/core/error';
import { type PublishedSkill, publish } from './build.js';
import { discover } from './discover.js';
import { type SkillsPlan, skillError } from './plan.js';
import type { SkillRoot } from './roots.js';

export { rootsOf } from './roots.js';

/** Every skill in `root`, published; any other failure is named with the root. */
export async function publishRoot(plan: SkillsPlan, root: SkillRoot): Promise<PublishedSkill[]> {
  try {
    const published: PublishedSkill[] = [];
    for (const skill of await discover(plan, root)) published.push(await publish(plan, skill));
    return published;
  } catch (error) {
    // A skill's own refusal already names it; anything else (storage, a tree's refusal) gets the root's name.
    if (error instanceof MastraError && error.details?.skill !== undefined) throw error;
    throw skillError(
      plan.serverId,
      root.name,
      `(${root.origin}) cannot be read: ${(error as Error).message}`,
    );
  }
}
