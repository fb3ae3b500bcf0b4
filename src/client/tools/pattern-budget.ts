/**
 * What one server's schema patterns may make the client compile: `maxPatternInstructions` RE2
 * instructions, each distinct pattern counted once for the client's life. A compiled program
 * holds 500-700 bytes per instruction and takes 8-20 µs per instruction to compile, so a
 * `tools/list` of 20,000 tools with five distinct patterns each took 51 s and 2.9 GiB of RSS
 * before this bound. Beyond it a pattern is not compiled: it passes unchecked (the server still
 * checks what it receives), and the first such pattern is reported once, by `warn`.
 */

/** About 30 MiB of compiled programs and under a second of compiling per server. */
export const DEFAULT_MAX_PATTERN_INSTRUCTIONS = 50_000;

/**
 * What a pattern counts: its RE2 program size, and at least one per four characters of its
 * source (a long character class compiles to few instructions but is kept whole).
 */
export function patternCost(instructions: number, source: string): number {
  return Math.max(instructions, Math.ceil(source.length / 4));
}

/** A pattern as messages show it: 120 characters at most. */
export function shownPattern(source: string): string {
  return source.length > 120 ? `${source.slice(0, 120)}…` : source;
}

export class PatternBudget {
  private readonly admitted = new Set<string>();
  private used = 0;
  /** Patterns refused so far: a compile that refused one is this server's own, never shared. */
  refused = 0;

  constructor(
    readonly limit: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Whether the pattern `key` may be compiled for this server; `cost` is asked only for a new one. */
  admit(key: string, cost: () => number, source: string): boolean {
    if (this.admitted.has(key)) return true;
    const size = cost();
    if (this.used + size > this.limit) {
      if (this.refused++ === 0)
        this.warn(
          `its schema patterns passed maxPatternInstructions (${this.limit} RE2 instructions): pattern '${shownPattern(source)}' and the new patterns after it are not checked by the client (the server still checks what it receives); raise maxPatternInstructions in this server's definition to check them`,
        );
      return false;
    }
    this.admitted.add(key);
    this.used += size;
    return true;
  }
}
