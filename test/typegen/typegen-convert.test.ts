/**
 * The JSON Schema → TypeScript converter and the module renderer of `mastra-mcp generate`, as
 * pure functions. Rendered text is also parsed and type-checked with the TypeScript compiler, so
 * "valid TypeScript" is checked, not assumed.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SCHEMA_MAX_DEPTH, SCHEMA_MAX_NODES } from '../../src/client/tools/schema-budget.js';
import type { MCPToolDefinition } from '../../src/index.js';
import { CATALOGUE_MAX_VALUES } from '../../src/typegen/catalogue-budget.js';
import { CONVERSION_MAX_NODES, type Conversion, convertSchema } from '../../src/typegen/convert.js';
import { describeDiagnostic, type SchemaSubject } from '../../src/typegen/diagnostics.js';
import { type Catalogue, renderModule } from '../../src/typegen/render.js';

const subject: SchemaSubject = { server: 'srv', tool: 'tool', side: 'input' };

function convert(schema: unknown): Conversion {
  let next = 0;
  return convertSchema(schema, subject, (hint) => `${hint.at(-1)?.replace(/\W/g, '_')}_${next++}`);
}

/** The type text of a schema that converts, without warnings unless `warnings` collects them. */
function typeOf(schema: unknown, warnings?: string[]): string {
  const result = convert(schema);
  if (!result.ok) throw new Error(`conversion failed: ${result.error.reason}`);
  if (warnings) warnings.push(...result.warnings.map(describeDiagnostic));
  else expect(result.warnings).toEqual([]);
  return result.type;
}

/** A one-line rendering, to compare structure without caring about line breaks. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, ' ');

function failureOf(schema: unknown): { pointer: string; reason: string } {
  const result = convert(schema);
  if (result.ok) throw new Error(`expected a failure, got ${result.type}`);
  return { pointer: result.error.pointer, reason: result.error.reason };
}

function tool(inputSchema: unknown, extra: Partial<MCPToolDefinition> = {}): MCPToolDefinition {
  return {
    name: 'x',
    serverName: 'srv',
    inputSchema: inputSchema as MCPToolDefinition['inputSchema'],
    ...extra,
  };
}

/** Type errors of `code` compiled alone (strict, ES2022 lib), through an in-memory compiler host. */
function typeErrors(code: string): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const file = `${process.cwd()}/virtual-check.ts`;
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, code, language)
      : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? code : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** `{ type: 'object', properties: { a: … } }` nested `levels` deep (root included). */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('convertSchema: types', () => {
  it('maps JSON types, type arrays (nullable) and integer', () => {
    expect(typeOf({ type: 'string' })).toBe('string');
    expect(typeOf({ type: 'integer' })).toBe('number');
    expect(typeOf({ type: 'boolean' })).toBe('boolean');
    expect(typeOf({ type: 'null' })).toBe('null');
    expect(typeOf({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeOf({ type: ['integer', 'number'] })).toBe('number');
    expect(typeOf({})).toBe('unknown');
  });

  it('keeps base types under constraints (formats, lengths, bounds, patterns)', () => {
    expect(typeOf({ type: 'string', format: 'email', minLength: 1, maxLength: 9, pattern: '^a' })).toBe(
      'string',
    );
    expect(typeOf({ type: 'number', minimum: 0, exclusiveMaximum: 5, multipleOf: 0.5 })).toBe('number');
    expect(typeOf({ type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true })).toBe(
      'string[]',
    );
  });

  it('turns enum and const into literal unions, filtered by the declared type', () => {
    expect(typeOf({ enum: ['a', 1, true, null] })).toBe("'a' | 1 | true | null");
    expect(typeOf({ type: 'string', enum: ['a', 1] })).toBe("'a'");
    expect(typeOf({ type: 'integer', enum: [1, 1.5, -2] })).toBe('1 | -2');
    expect(typeOf({ const: false })).toBe('false');
    expect(typeOf({ type: 'array', items: { const: -1 } })).toBe('(-1)[]');
    // Strings are escaped: quotes, backslashes, line breaks and comment closers stay inside.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-looking string must stay a string
    const tricky = 'say "hi"\\\n*/ `${x}`';
    const quoted = typeOf({ const: tricky });
    expect(quoted).toBe(`'say "hi"\\\\\\n*/ \`\${x}\`'`);
    expect(new Function(`return ${quoted}`)()).toBe(tricky);
  });

  it('widens enum and const holding objects or arrays to the base type, with a warning', () => {
    const warnings: string[] = [];
    expect(typeOf({ type: 'object', enum: [{ a: 1 }], additionalProperties: false }, warnings)).toBe(
      '{ [key: string]: never }',
    );
    expect(typeOf({ const: [1] }, warnings)).toBe('unknown');
    expect(warnings).toHaveLength(2);
  });

  it('builds objects: required and optional members, quoted names, JSDoc from descriptions', () => {
    const type = typeOf({
      type: 'object',
      properties: {
        plain: { type: 'string', description: 'A plain name.' },
        'needs-quotes': { type: 'number' },
        '': { type: 'boolean' },
        'it\'s "quoted"\n': { type: 'null' },
        ...JSON.parse('{"__proto__": { "type": "string" }}'),
      },
      required: ['plain', 'missing'],
      additionalProperties: false,
    });
    expect(type).toBe(
      [
        '{',
        '  /** A plain name. */',
        '  plain: string;',
        "  'needs-quotes'?: number;",
        "  ''?: boolean;",
        "  'it\\'s \"quoted\"\\n'?: null;",
        '  __proto__?: string;',
        '  missing: unknown;',
        '}',
      ].join('\n'),
    );
  });

  it('types additionalProperties: open by default, closed by false, an index signature for a schema', () => {
    expect(flat(typeOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }))).toBe(
      '{ a: string; [key: string]: unknown; }',
    );
    expect(typeOf({ type: 'object', additionalProperties: true })).toBe('{ [key: string]: unknown }');
    expect(typeOf({ type: 'object', properties: {}, additionalProperties: false })).toBe(
      '{ [key: string]: never }',
    );
    // The index signature admits the declared members too (and undefined for optional ones).
    expect(
      flat(
        typeOf({
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'boolean' } },
          required: ['a'],
          additionalProperties: { type: 'number' },
        }),
      ),
    ).toBe('{ a: string; b?: boolean; [key: string]: number | string | boolean | undefined; }');
    // Without `type`, object keywords mean an object.
    expect(typeOf({ properties: { a: { type: 'string' } }, additionalProperties: false })).toBe(
      '{ a?: string }',
    );
  });

  it('builds arrays, and an empty tuple for items: false', () => {
    expect(typeOf({ type: 'array' })).toBe('unknown[]');
    expect(typeOf({ type: 'array', items: { type: ['string', 'number'] } })).toBe('(string | number)[]');
    expect(typeOf({ type: 'array', items: false })).toBe('[]');
    expect(typeOf({ items: { type: 'boolean' } })).toBe('boolean[]');
  });

  it('composes anyOf and oneOf as unions, allOf as intersections, with the siblings', () => {
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('string | number');
    expect(typeOf({ oneOf: [{ const: 'a' }, { const: 'b' }, { const: 'a' }] })).toBe("'a' | 'b'");
    expect(
      flat(
        typeOf({
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
            { type: 'object', properties: { b: { type: 'number' } }, additionalProperties: false },
          ],
        }),
      ),
    ).toBe('{ a?: string } & { b?: number }');
    expect(
      typeOf({
        type: 'object',
        additionalProperties: false,
        properties: { a: { type: 'string' } },
        anyOf: [{ type: 'string' }, { type: 'null' }],
      }),
    ).toBe('{ a?: string } & (string | null)');
    expect(typeOf({ anyOf: [{ type: 'string' }, true] })).toBe('unknown');
  });

  it('maps boolean schemas: true is unknown, false is never', () => {
    expect(typeOf(true)).toBe('unknown');
    expect(typeOf(false)).toBe('never');
    expect(flat(typeOf({ type: 'object', properties: { gone: false, any: true } }))).toBe(
      '{ gone?: never; any?: unknown; [key: string]: unknown; }',
    );
  });
});

describe('convertSchema: references', () => {
  it('resolves #/$defs and draft-07 #/definitions into one named helper per target', () => {
    const result = convert({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      definitions: { label: { type: 'string' } },
      properties: {
        from: { $ref: '#/$defs/point' },
        to: { $ref: '#/$defs/point' },
        path: { type: 'array', items: { $ref: '#/$defs/point' } },
        label: { $ref: '#/definitions/label' },
      },
      additionalProperties: false,
    });
    if (!result.ok) throw new Error(result.error.reason);
    expect(result.helpers.map((helper) => helper.name)).toEqual(['point_0', 'label_1']);
    expect(flat(result.type)).toBe('{ from?: point_0; to?: point_0; path?: point_0[]; label?: label_1; }');
    expect(flat(result.helpers[0]?.type ?? '')).toBe('{ x: number; [key: string]: unknown; }');
    expect(result.helpers[1]?.type).toBe('string');
  });

  it('decodes pointer escapes (~0, ~1, percent-encoding) and plain-name anchors', () => {
    const schema = {
      $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': { type: 'boolean' } },
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/c~0d' },
        space: { $ref: '#/$defs/e%20f' },
        anchored: { $ref: '#here' },
      },
      $comment: 'anchors',
      additionalProperties: false,
    };
    (schema.$defs as Record<string, unknown>).anchor = { $anchor: 'here', type: 'null' };
    (schema.$defs as Record<string, unknown>).legacy = { $id: '#old', type: 'integer' };
    (schema.properties as Record<string, unknown>).legacy = { $ref: '#old' };
    const result = convert(schema);
    if (!result.ok) throw new Error(result.error.reason);
    expect(result.helpers.map((helper) => helper.type)).toEqual([
      'string',
      'number',
      'boolean',
      'null',
      'number',
    ]);
    // `items/0` points into a schema, not into an array: nothing there.
    expect(convert({ properties: { a: { $ref: '#/properties/b/items/0' }, b: { items: {} } } }).ok).toBe(
      false,
    );
  });

  it('keeps shared definitions linear: a chain where each level references the next twice', () => {
    const $defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) {
      const next = { $ref: `#/$defs/d${i + 1}` };
      $defs[`d${i}`] = { type: 'object', properties: { left: next, right: next } };
    }
    const result = convert({ type: 'object', $defs, properties: { root: { $ref: '#/$defs/d0' } } });
    if (!result.ok) throw new Error(result.error.reason);
    expect(result.helpers).toHaveLength(31);
    const size = result.type.length + result.helpers.reduce((sum, helper) => sum + helper.type.length, 0);
    expect(size).toBeLessThan(5_000); // inlined, it would be 2^30 copies of the leaf
  });

  it('fails on reference cycles, including a schema referring to its own root', () => {
    expect(
      failureOf({
        $defs: {
          a: { type: 'object', properties: { b: { $ref: '#/$defs/b' } } },
          b: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'null' }] },
        },
        properties: { start: { $ref: '#/$defs/a' } },
      }),
    ).toEqual({ pointer: '#/$defs/a', reason: 'reference cycle through this definition' });
    expect(failureOf({ type: 'object', properties: { child: { $ref: '#' } } }).reason).toBe(
      'reference cycle through this definition',
    );
    expect(
      failureOf({ $defs: { self: { $ref: '#/$defs/self' } }, properties: { a: { $ref: '#/$defs/self' } } }),
    ).toMatchObject({ pointer: '#/$defs/self' });
    // A cycle among definitions nothing uses does not matter.
    expect(typeOf({ $defs: { loop: { $ref: '#/$defs/loop' } }, type: 'string' })).toBe('string');
  });

  it('fails on local references that resolve to nothing', () => {
    expect(failureOf({ properties: { a: { $ref: '#/$defs/missing' } } })).toEqual({
      pointer: '#/properties/a/$ref',
      reason: 'local $ref does not resolve',
    });
    expect(failureOf({ properties: { a: { $ref: '#nowhere' } } }).reason).toBe('local $ref does not resolve');
    expect(failureOf({ properties: { a: { $ref: '#/properties/constructor' } } }).reason).toBe(
      'local $ref does not resolve',
    );
  });

  it('widens external references without fetching them', () => {
    const warnings: string[] = [];
    expect(
      flat(typeOf({ properties: { a: { $ref: 'https://example.invalid/schema.json' } } }, warnings)),
    ).toBe('{ a?: unknown; [key: string]: unknown; }');
    expect(warnings).toEqual([
      "server 'srv', tool 'tool', input schema at #/properties/a/$ref: external $ref is not fetched; widened to unknown",
    ]);
  });

  it('intersects a 2020-12 $ref with its siblings; draft-07 ignores the siblings', () => {
    const schema = {
      $defs: { s: { type: 'string' } },
      properties: { a: { $ref: '#/$defs/s', enum: ['x'] } },
    };
    expect(flat(typeOf({ ...schema, additionalProperties: false }))).toBe("{ a?: s_0 & 'x' }");
    const draft07 = {
      ...schema,
      $schema: 'http://json-schema.org/draft-07/schema#',
      additionalProperties: false,
    };
    expect(flat(typeOf(draft07))).toBe('{ a?: s_0 }');
  });
});

describe('convertSchema: budgets', () => {
  it(`accepts ${SCHEMA_MAX_DEPTH} nested levels and fails one more, before converting anything`, () => {
    expect(convert(nested(SCHEMA_MAX_DEPTH)).ok).toBe(true);
    expect(failureOf(nested(SCHEMA_MAX_DEPTH + 1))).toEqual({
      pointer: '#',
      reason: `nests subschemas more than ${SCHEMA_MAX_DEPTH} levels deep`,
    });
  });

  it('fails a $ref into raw JSON that nests schema keywords too deep', () => {
    const failure = failureOf({
      properties: { a: { $ref: '#/properties/b/default' }, b: { default: nested(SCHEMA_MAX_DEPTH + 10) } },
    });
    expect(failure.reason).toBe(`nests subschemas more than ${SCHEMA_MAX_DEPTH} levels deep`);
    expect(failure.pointer.startsWith('#/properties/b/default/properties/a/properties/a')).toBe(true);
  });

  it('widens a schema over the node budget, or over the raw JSON budget, whole', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i <= SCHEMA_MAX_NODES; i++) properties[`p${i}`] = { type: 'string' };
    const warnings: string[] = [];
    expect(typeOf({ type: 'object', properties }, warnings)).toBe('unknown');
    expect(warnings).toEqual([
      `server 'srv', tool 'tool', input schema at #: has more than ${SCHEMA_MAX_NODES} subschemas; widened to unknown`,
    ]);

    let deepDefault: unknown = [];
    for (let i = 0; i < 1_100; i++) deepDefault = [deepDefault];
    const rawWarnings: string[] = [];
    expect(typeOf({ type: 'object', properties: { a: { default: deepDefault } } }, rawWarnings)).toBe(
      'unknown',
    );
    expect(rawWarnings[0]).toMatch(/at #: nests JSON more than \d+ levels deep; widened to unknown$/);
  });

  it('widens a schema whose references make it expand past the conversion budget', () => {
    // 60 nested levels of 100 members each (about 6,000 nodes, within budget), and a reference to
    // every level: together the referenced subtrees hold about 180,000 subschemas.
    let level: Record<string, unknown> = { type: 'string' };
    const refs: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      const properties: Record<string, unknown> = { n: level };
      for (let j = 0; j < 100; j++) properties[`p${j}`] = { type: 'number' };
      level = { type: 'object', properties };
      refs.push({ $ref: `#${'/properties/n'.repeat(i)}` });
    }
    const warnings: string[] = [];
    expect(typeOf({ ...level, anyOf: refs.slice(1) }, warnings)).toBe('unknown');
    expect(warnings).toEqual([
      `server 'srv', tool 'tool', input schema at #: expands through references to more than ${CONVERSION_MAX_NODES} subschemas; widened to unknown`,
    ]);
  });
});

describe('convertSchema: what it cannot represent', () => {
  it.each([
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
    ['if/then/else', { if: { type: 'string' }, then: { minLength: 1 }, else: { type: 'number' } }],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }], items: false }],
    ['draft-07 tuple items', { type: 'array', items: [{ type: 'string' }] }],
    ['not', { not: { type: 'string' } }],
    ['patternProperties', { type: 'object', patternProperties: { '^x': { type: 'string' } } }],
    ['dependentSchemas', { type: 'object', dependentSchemas: { a: { required: ['b'] } } }],
    ['unevaluatedProperties', { type: 'object', unevaluatedProperties: false }],
    ['schema dependencies', { type: 'object', dependencies: { a: { required: ['b'] } } }],
  ])('widens %s to unknown with a warning at its position', (_name, schema) => {
    const warnings: string[] = [];
    expect(flat(typeOf({ type: 'object', properties: { field: schema } }, warnings))).toBe(
      '{ field?: unknown; [key: string]: unknown; }',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^server 'srv', tool 'tool', input schema at #\/properties\/field: .+; widened to unknown$/,
    );
  });

  it.each([
    ['properties: 5', { type: 'object', properties: 5 }, "'properties' is not an object of schemas"],
    ['required: a string', { type: 'object', required: 'x' }, "'required' is not an array of strings"],
    ['type: nonsense', { type: 'nonsense' }, "'type' is not a JSON type name or a list of distinct ones"],
    ['type: []', { type: [] }, "'type' is not a JSON type name or a list of distinct ones"],
    ['anyOf: []', { anyOf: [] }, "'anyOf' is not a non-empty array of schemas"],
    ['items: 3', { type: 'array', items: 3 }, "'items' is not a schema or an array of schemas"],
    ['enum: object', { enum: { a: 1 } }, "'enum' is not an array"],
    ['minLength: -1', { type: 'string', minLength: -1 }, "'minLength' is not a non-negative integer"],
    ['$ref: 7', { $ref: 7 }, "'$ref' is not a string"],
    ['a number as a schema', 5, 'not a schema (an object or a boolean)'],
  ])('widens a schema whose keyword has the wrong shape (%s), and only that schema', (_name, bad, reason) => {
    const warnings: string[] = [];
    expect(
      flat(
        typeOf(
          { type: 'object', properties: { bad, good: { type: 'string' } }, required: ['good'] },
          warnings,
        ),
      ),
    ).toBe('{ bad?: unknown; good: string; [key: string]: unknown; }');
    expect(warnings).toEqual([
      `server 'srv', tool 'tool', input schema at #/properties/bad: ${reason}; widened to unknown`,
    ]);
  });

  it('never puts schema content into diagnostics, and escapes what it does print', () => {
    const secretSchema = {
      type: 'object',
      title: 'SECRET-TITLE',
      description: 'SECRET-DESCRIPTION',
      $defs: { unused: { const: 'SECRET-DEF' } },
      properties: {
        a: { $ref: 'https://user:SECRET-PASSWORD@example.invalid/s.json', description: 'SECRET-A' },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
        b: { if: { const: 'SECRET-IF' }, then: { default: 'SECRET-DEFAULT' } },
        c: { type: 'nonsense', examples: ['SECRET-EXAMPLE'] },
        d: { enum: [{ key: 'SECRET-ENUM' }] },
        e: { properties: 'SECRET-PROPERTIES' },
        f: { pattern: 'SECRET-PATTERN', not: { const: 'SECRET-NOT' } },
        'g\u001b[31m\u202e': { prefixItems: [{ const: 'SECRET-PREFIX' }] },
        h: { $ref: '#/$defs/SECRET-MISSING' },
      },
    };
    const result = convert(secretSchema);
    expect(result.ok).toBe(false);
    const printed = [...result.warnings, ...(result.ok ? [] : [result.error])].map(describeDiagnostic);
    expect(printed.length).toBeGreaterThanOrEqual(6);
    for (const line of printed) {
      expect(line).not.toMatch(/SECRET|example\.invalid/);
      expect([...line].some((char) => char < ' ' || char === '\u202e')).toBe(false);
    }
    expect(printed.join('\n')).toContain('#/properties/g\\u001b[31m\\u202e');
  });
});

describe('renderModule', () => {
  const catalogue: Catalogue = {
    weather: {
      get_weather: tool(
        {
          type: 'object',
          properties: { location: { type: 'string', description: 'City name.' } },
          required: ['location'],
          additionalProperties: false,
        },
        {
          description: 'Current weather.',
          outputSchema: {
            type: 'object',
            properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
            required: ['temperature', 'conditions'],
          },
        },
      ),
      'ping-pong': tool({ type: 'object' }),
    },
    'maps-v2': {
      route: tool({
        type: 'object',
        $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
        required: ['from', 'to'],
      }),
      distance: tool(
        {
          type: 'object',
          $defs: { point: { type: 'object', properties: { y: { type: 'number' } } } },
          properties: { a: { $ref: '#/$defs/point' } },
        },
        { outputSchema: { type: 'number' } },
      ),
    },
  };

  it('renders MCPServers with sorted servers and tools, input and output per tool, and helpers', () => {
    const rendered = renderModule(catalogue);
    expect(rendered).toMatchObject({ warnings: [], failures: [], servers: 2, tools: 4 });
    const { text } = rendered;
    expect(text.startsWith('// Generated by `mastra-mcp generate`')).toBe(true);
    expect(text.indexOf("'maps-v2': {")).toBeLessThan(text.indexOf('weather: {'));
    expect(text.indexOf('distance: {')).toBeLessThan(text.indexOf('route: {'));
    expect(text.indexOf('get_weather: {')).toBeLessThan(text.indexOf("'ping-pong': {"));
    expect(text).toContain(
      [
        '      /** Current weather. */',
        '      get_weather: {',
        '        input: {',
        '          /** City name. */',
        '          location: string;',
        '        };',
        '        output: {',
        '          temperature: number;',
        '          conditions: string;',
        '          [key: string]: unknown;',
        '        };',
        '      };',
      ].join('\n'),
    );
    // No outputSchema: output is unknown. Two tools' `point` definitions get distinct helpers.
    expect(flat(text)).toContain("'ping-pong': { input: { [key: string]: unknown }; output: unknown; };");
    expect(text).toContain('export type MapsV2DistanceInputPoint = {');
    expect(text).toContain('export type MapsV2RouteInputPoint = {');
    expect(flat(text)).toContain(
      'distance: { input: { a?: MapsV2DistanceInputPoint; [key: string]: unknown; }; output: number; };',
    );
  });

  it('marks the tools a server may answer with a task, from the tool _meta MCPServer lists', () => {
    const object = { type: 'object', properties: {} };
    const { text } = renderModule({
      reports: {
        build: tool(object, { _meta: { 'mastra/taskSupport': 'required' } }),
        draft: tool(object, { _meta: { 'mastra/taskSupport': 'optional' } }),
        plain: tool(object, { _meta: { 'mastra/taskSupport': 'forbidden', other: true } }),
      },
    });
    expect(text).toContain(
      "build: {\n        input: { [key: string]: unknown };\n        output: unknown;\n        task: 'required';",
    );
    expect(text).toContain("task: 'optional'");
    expect(text.match(/task: /g)).toHaveLength(2);
  });

  it('is deterministic whatever order the catalogue lists servers and tools in', () => {
    const reversed = Object.fromEntries(
      Object.entries(catalogue)
        .reverse()
        .map(([server, tools]) => [server, Object.fromEntries(Object.entries(tools).reverse())]),
    );
    expect(renderModule(reversed).text).toBe(renderModule(catalogue).text);
  });

  it('renders hostile names and descriptions as inert, valid TypeScript that fits MCPServerTypes', () => {
    const hostile: Catalogue = {
      'srv */ export const pwned = 1; /*': {
        'tool"\n\u2028': tool(
          {
            type: 'object',
            properties: {
              'x */ y': { type: 'string', description: 'ends the comment */ export const pwned2 = 2; /*' },
              'line\u2028break': {
                type: 'number',
                description: 'two\r\nlines\u2029and \u001b[31mcolour\u202e',
              },
              // Would be a compiler directive as a one-line comment.
              directive: { type: 'string', description: '  @ts-expect-error' },
            },
            additionalProperties: { type: 'boolean' },
          },
          { description: '*/ declare const pwned3: 3; /**' },
        ),
        combined: tool({
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } },
          required: ['a'],
          additionalProperties: { type: 'integer' },
        }),
      },
    };
    const { text, failures } = renderModule(hostile);
    expect(failures).toEqual([]);
    expect(text.includes('\u001b') || text.includes('\u202e')).toBe(false);
    const source = ts.createSourceFile('generated.ts', text, ts.ScriptTarget.Latest);
    expect(source.statements.map((statement) => ts.SyntaxKind[statement.kind])).toEqual([
      'InterfaceDeclaration',
    ]);
    const check = `${text}
type MCPServerTypes = Record<string, { tools: Record<string, { input: unknown; output: unknown }> }>;
const fits: Pick<MCPServers, keyof MCPServers> extends MCPServerTypes ? true : false = true;
type Combined = MCPServers['srv */ export const pwned = 1; /*']['tools']['combined']['input'];
const ok: Combined = { a: 'x', b: [1], extra: 2 };
// @ts-expect-error: other members are integers (or the declared members' types)
const wrong: Combined = { a: 'x', extra: true };
export { fits, ok, wrong };
`;
    expect(typeErrors(check)).toEqual([]);
  });

  it('fails the module on a hard schema failure, naming server, tool and side', () => {
    const { failures } = renderModule({
      s: { t: tool({ type: 'object' }, { outputSchema: { properties: { a: { $ref: '#/$defs/none' } } } }) },
    });
    expect(failures).toEqual([
      "server 's', tool 't', output schema at #/properties/a/$ref: local $ref does not resolve",
    ]);
  });

  it('widens the rest of a catalogue once it holds more JSON values than the catalogue budget', () => {
    // Each schema stays under the per-schema budgets; together they pass the catalogue budget.
    const filler = new Array(150_000).fill(0);
    const big = () => tool({ type: 'object', properties: { a: { type: 'string', default: filler } } });
    const tools: Record<string, MCPToolDefinition> = {};
    const count = Math.ceil(CATALOGUE_MAX_VALUES / filler.length) + 2;
    for (let i = 0; i < count; i++) tools[`t${String(i).padStart(2, '0')}`] = big();
    const { text, warnings } = renderModule({ s: tools });
    const widened = text.match(/input: unknown;/g) ?? [];
    expect(widened.length).toBeGreaterThanOrEqual(2);
    expect(widened.length).toBeLessThan(count);
    expect(flat(text)).toContain(
      't00: { input: { a?: string; [key: string]: unknown; }; output: unknown; };',
    );
    expect(flat(text)).toContain(
      `t${String(count - 1).padStart(2, '0')}: { input: unknown; output: unknown; };`,
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /the catalogue holds more than \d+ JSON values; this schema and every later one widened/,
    );
  });
});
