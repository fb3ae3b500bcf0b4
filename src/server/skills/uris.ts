/** How skills are addressed: the extension's `skill://` scheme, the manifest's file name, one key per URI. */

/** Every skill is served under it (the extension's convention). */
export const SKILL_SCHEME = 'skill://';

export const SKILL_FILE = 'SKILL.md';

/** The WHATWG form of a URI, the one key every spelling of it shares; `undefined` if it does not parse. */
export function canonical(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}
