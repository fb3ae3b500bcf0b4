/**
 * The Agent Skills specification's rules for `SKILL.md` frontmatter (agentskills.io/specification),
 * each problem naming its key (`metadata.version`). The SDK checks some of these when it builds an
 * entry, without naming the key inside `metadata`, and not `license` or `allowed-tools`; a skill is
 * refused here so that no client is sent frontmatter it must reject. Keys the specification does
 * not define (`user-invocable`, a later revision's) pass through, as the extension asks.
 * `allowed-tools` is checked for its type only: MCPServer never acts on it.
 */

export interface FrontmatterProblem {
  key: string;
  message: string;
}

/** Lowercase letters, digits and single inner hyphens. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Length in characters (code points), as the specification counts. */
const characters = (text: string) => [...text].length;

function textProblem(key: string, value: unknown, max: number | undefined): FrontmatterProblem | undefined {
  if (typeof value !== 'string') return { key, message: `must be a string, got ${kindOf(value)}` };
  if (max !== undefined && (value.trim() === '' || characters(value) > max)) {
    return { key, message: `must be 1-${max} characters (not only white space)` };
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Every problem of `frontmatter`, in key order; empty when the specification allows it. */
export function frontmatterProblems(frontmatter: Record<string, unknown>): FrontmatterProblem[] {
  const problems: FrontmatterProblem[] = [];
  const { name, metadata } = frontmatter;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 64) {
    problems.push({
      key: 'name',
      message: 'must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one',
    });
  }
  const texts: Array<[key: string, max: number | undefined, optional: boolean]> = [
    ['description', 1024, false],
    ['license', undefined, true],
    ['compatibility', 500, true],
    ['allowed-tools', undefined, true],
  ];
  for (const [key, max, optional] of texts) {
    if (optional && frontmatter[key] === undefined) continue;
    const problem = textProblem(key, frontmatter[key], max);
    if (problem) problems.push(problem);
  }
  if (metadata !== undefined) {
    if (!isRecord(metadata))
      problems.push({ key: 'metadata', message: `must map strings to strings, got ${kindOf(metadata)}` });
    else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== 'string') {
          problems.push({ key: `metadata.${key}`, message: `must be a string, got ${kindOf(value)}` });
        }
      }
    }
  }
  return problems;
}

/** The problems as one clause: "metadata.version must be a string, got a number; …". */
export function describeProblems(problems: readonly FrontmatterProblem[]): string {
  return problems.map((problem) => `${problem.key} ${problem.message}`).join('; ');
}
