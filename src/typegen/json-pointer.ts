/**
 * JSON Pointers (RFC 6901) as `$ref` fragments use them: `#/$defs/a~1b` names the member `a/b`
 * of `$defs`. Resolution walks own members only, so `#/__proto__` or `#/constructor` never reach
 * anything the schema did not contain.
 */

/** The tokens of a `#…` pointer fragment, or undefined when the fragment is not a pointer (an anchor). */
export function pointerTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    // A fragment is a URI component, so `%25` and friends are percent-decoded first.
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  return fragment
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** The value the tokens lead to inside `root`, or `{ found: false }`. */
export function resolvePointer(
  root: unknown,
  tokens: readonly string[],
): { found: boolean; value?: unknown } {
  let current = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** `#/a/b~1c`: the escaped form, the one a reader can paste into a `$ref`. */
export function formatPointer(tokens: readonly string[]): string {
  return `#${tokens.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}
