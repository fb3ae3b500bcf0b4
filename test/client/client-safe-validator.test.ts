import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_MATCH_WORK,
  MAX_PATTERN_SIZE,
  safePattern,
  uncheckedPatterns,
} from '../../src/client/tools/safe-pattern.js';
import { SafeJsonSchemaValidator } from '../../src/client/tools/safe-validator.js';
import { MCPErrorCode } from '../../src/index.js';

/** Patterns of the kinds tool schemas use, all within what RE2 expresses. */
const PATTERNS = [
  '^[a-z]+$',
  '^\\d{3}-\\d{4}$',
  '^(a|b)*1?$',
  'a.b',
  '^\\w+@\\w+\\.\\w+$',
  '^(?:[a-z0-9-]{1,5}\\.)+[a-z]{2,3}$',
  '^(a+)+$',
  '^[^@]+@[^@]+$',
  '\\bab\\b',
  '^$',
  '^(?<word>ab)+$',
  '^[\\u0041-\\u005A_]+$',
  '^.{2,4}$',
  'a[]|[^]',
];

describe('safePattern', () => {
  it('gives the verdict ECMAScript does on the patterns tool schemas use', async () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'z', 'A', 'Z', '1', '-', '.', '@', '_', ' '),
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATTERNS), text, async (source, input) => {
        // One validation per run, as in the client: the run's matching budget starts afresh.
        await Promise.resolve();
        const pattern = safePattern(source);
        expect(pattern.unchecked).toBeUndefined();
        expect(pattern.test(input), `${source} on '${input}'`).toBe(new RegExp(source, 'u').test(input));
      }),
      { seed: 13, numRuns: 2_000 },
    );
  });

  it('compiles a source once and shares it while anything holds it, however many others compile meanwhile', () => {
    const held = safePattern('^held-[a-z]{3}$');
    for (let i = 0; i < 1500; i++) safePattern(`^other-${i}$`);
    expect(safePattern('^held-[a-z]{3}$')).toBe(held);
  });

  it('matches an exponential pattern against a long input in linear time', () => {
    const pattern = safePattern('^(a+)+$');
    expect(pattern.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(pattern.test('a'.repeat(100_000))).toBe(true);
  });

  it('leaves unchecked, with the reason, what RE2 cannot match in linear time', () => {
    const reasons = Object.fromEntries(
      [
        '(a)\\1',
        '(?<x>a)\\k<x>',
        '(?=a)a',
        '(?<!a)b',
        '(?:\\p{L}{1000})'.repeat(20),
        'a{1000}'.repeat(140),
      ].map((source) => [source.slice(0, 12), safePattern(source).unchecked]),
    );
    expect(reasons).toEqual({
      '(a)\\1': 'RE2 has no linear-time form for a backreference',
      '(?<x>a)\\k<x>': 'RE2 has no linear-time form for a backreference',
      '(?=a)a': 'RE2 has no linear-time form for lookaround (lookahead or lookbehind)',
      '(?<!a)b': 'RE2 has no linear-time form for lookaround (lookahead or lookbehind)',
      '(?:\\p{L}{100': `it compiles to more than ${MAX_PATTERN_SIZE} RE2 instructions`,
      'a{1000}a{100': `it compiles to more than ${MAX_PATTERN_SIZE} RE2 instructions`,
    });
    // An unchecked pattern passes everything: the server decides.
    expect(safePattern('(a)\\1').test('ab')).toBe(true);
    // Escaped, these are literals, not backreferences or lookaround.
    expect(safePattern('\\\\1[(?=]').unchecked).toBeUndefined();
    // Counted repetitions in the hundreds stay checked.
    expect(safePattern('^[a-z]{1,255}$').test('x'.repeat(256))).toBe(false);
    expect(safePattern('^[a-z]{1,255}$').test('x'.repeat(255))).toBe(true);
  });

  it('bounds the matching work of one input, and of one synchronous run', async () => {
    const letters = safePattern('^[a-z]+$');
    // Within MAX_MATCH_WORK: checked. Beyond it: passes unchecked.
    expect(letters.test(`${'a'.repeat(100_000)}1`)).toBe(false);
    expect(letters.test(`${'a'.repeat(MAX_MATCH_WORK)}1`)).toBe(true);
    // A pattern whose DFA blows up costs RE2 up to ~1 ms per 1,000 characters here; a hundred
    // such inputs in one run would take seconds, the run stops checking after MAX_MATCH_MS.
    await Promise.resolve();
    const blowup = safePattern('a[ab]{150}[cd]');
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31 < 0.5 ? 'a' : 'b';
    };
    const input = Array.from({ length: 10_000 }, random).join('');
    const verdicts = Array.from({ length: 100 }, () => blowup.test(input));
    // The first inputs were checked (no match), the rest passed unchecked.
    expect(verdicts.at(-1)).toBe(true);
    expect(verdicts.filter((verdict) => !verdict).length).toBeLessThan(100);
    // The next run checks again.
    await Promise.resolve();
    expect(blowup.test('ab'.repeat(100))).toBe(false);
  });

  it('throws for what is not a regular expression at all, as a backtracking engine does', () => {
    expect(() => safePattern('(unclosed')).toThrow(SyntaxError);
  });

  it('finds the unchecked patterns of a schema with where they are', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b': { type: 'string', pattern: '(?=x)' }, fine: { pattern: '^x$' } },
      patternProperties: { '(y)\\1': {} },
      items: [{ pattern: '(?!z)' }],
    };
    expect(
      uncheckedPatterns(schema).map(({ pointer, keyword, source }) => [pointer, keyword, source]),
    ).toEqual(
      expect.arrayContaining([
        ['/properties/a~1b', 'pattern', '(?=x)'],
        ['/', 'patternProperties', '(y)\\1'],
        ['/items/0', 'pattern', '(?!z)'],
      ]),
    );
    expect(uncheckedPatterns(schema)).toHaveLength(3);
  });
});

describe('SafeJsonSchemaValidator', () => {
  const evil = { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } };
  const input = { v: `${'a'.repeat(5_000)}!` };

  it.each([
    ['no $schema', undefined],
    ['2020-12', 'https://json-schema.org/draft/2020-12/schema'],
    ['2019-09', 'https://json-schema.org/draft/2019-09/schema#'],
    ['draft-07', 'http://json-schema.org/draft-07/schema#'],
    ['draft-06', 'http://json-schema.org/draft-06/schema'],
  ])('%s: patterns go through RE2, formats are checked', (_, $schema) => {
    const validator = new SafeJsonSchemaValidator();
    const check = validator.getValidator({ ...evil, ...($schema ? { $schema } : {}) });
    expect(check(input)).toMatchObject({
      valid: false,
      errorMessage: expect.stringMatching(/must match pattern/),
    });
    expect(check({ v: 'aaaa' })).toMatchObject({ valid: true });
    const email = validator.getValidator({
      type: 'string',
      format: 'email',
      ...($schema ? { $schema } : {}),
    });
    expect([email('x@example.com').valid, email('not an email').valid]).toEqual([true, false]);
  });

  it('keeps 2020-12 semantics without a $schema (prefixItems, $defs)', () => {
    const check = new SafeJsonSchemaValidator().getValidator({
      $defs: { n: { type: 'number' } },
      type: 'array',
      prefixItems: [{ type: 'string' }, { $ref: '#/$defs/n' }],
      items: false,
    });
    expect([check(['a', 1]).valid, check(['a', 'b']).valid, check(['a', 1, 2]).valid]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses an unknown dialect, naming it', () => {
    expect(() => new SafeJsonSchemaValidator().getValidator({ $schema: 'https://example.com/mine' })).toThrow(
      expect.objectContaining({
        id: MCPErrorCode.CLIENT_UNSUPPORTED_SCHEMA_DIALECT,
        message: expect.stringMatching(/unsupported dialect .*https:\/\/example\.com\/mine/),
      }),
    );
  });

  it("does not let one schema's $id stand in for another's", () => {
    const validator = new SafeJsonSchemaValidator();
    const first = validator.getValidator({ $id: 'https://example.com/same', type: 'string' });
    const second = validator.getValidator({ $id: 'https://example.com/same', type: 'number' });
    expect([first('x').valid, second('x').valid, second(1).valid]).toEqual([true, false, true]);
  });
});
