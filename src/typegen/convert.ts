/**
 * JSON Schema (2020-12, and the draft-07 spellings `definitions` and tuple `items`) to a
 * TypeScript type, without I/O. The schema's budgets are measured before anything reads it
 * further: too deep fails, too large widens to `unknown`. Each local `$ref` target becomes one
 * named helper type however often it is referenced, so shared definitions cannot multiply the
 * output; a cycle among them, or a reference that resolves to nothing, fails the tool. What has
 * no TypeScript counterpart widens to `unknown` with a warning that names the position only.
 */
import { measureSchema, SCHEMA_MAX_DEPTH, SCHEMA_MAX_NODES } from '../client/tools/schema-budget.js';
import type { SchemaDiagnostic, SchemaSubject } from './diagnostics.js';
import { formatPointer, pointerTokens, resolvePointer } from './json-pointer.js';
import {
  isSchemaObject,
  JSON_TYPES,
  type SchemaObject,
  shapeProblem,
  unsupportedKeyword,
} from './schema-keywords.js';
import {
  arrayOf,
  atom,
  docComment,
  intersectionOf,
  literal,
  type Member,
  NEVER,
  objectLiteral,
  propertyKey,
  type TypeText,
  UNKNOWN,
  unionOf,
} from './ts-syntax.js';

/** A named type the converted type refers to (one per `$ref` target). */
export interface HelperType {
  name: string;
  type: string;
}

/** Returns a module-wide unique identifier built from the hint (server, tool, side, definition). */
export type NameAllocator = (hint: readonly string[]) => string;

export type Conversion =
  | { ok: true; type: string; helpers: HelperType[]; warnings: SchemaDiagnostic[] }
  | { ok: false; error: SchemaDiagnostic; warnings: SchemaDiagnostic[] };

/** A position as a linked list, so descending costs nothing until a diagnostic needs the pointer. */
interface Path {
  readonly parent: Path | undefined;
  readonly token: string;
}

const at = (parent: Path | undefined, ...tokens: string[]): Path | undefined =>
  tokens.reduce<Path | undefined>((path, token) => ({ parent: path, token }), parent);

function tokensOf(path: Path | undefined): string[] {
  const tokens: string[] = [];
  for (let node = path; node; node = node.parent) tokens.push(node.token);
  return tokens.reverse();
}

interface Helper {
  name: string;
  value: unknown;
  path: Path | undefined;
  deps: Set<Helper>;
  type?: TypeText;
}

/**
 * Conversions one schema may cost, root and helpers together. A plain schema costs at most its
 * node count (within SCHEMA_MAX_NODES); only references to overlapping positions (into another
 * definition's members, into raw JSON) can cost more, and past this bound the schema is widened.
 */
export const CONVERSION_MAX_NODES = 2 * SCHEMA_MAX_NODES;

class ConversionBudgetExceeded extends Error {}

class SchemaFailure extends Error {
  constructor(readonly diagnostic: SchemaDiagnostic) {
    super(diagnostic.reason);
  }
}

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'];

class Converter {
  readonly warnings: SchemaDiagnostic[] = [];
  readonly helpers = new Map<string, Helper>();
  private readonly queue: Helper[] = [];
  /** The helpers the schema being converted refers to (the root's, then each helper's own). */
  deps = new Set<Helper>();
  /** Before 2019-09 a `$ref` replaced its whole schema: sibling keywords were ignored. */
  private readonly refReplacesSiblings: boolean;
  private conversions = 0;
  /** Plain-name anchors, indexed on the first `#name` reference. */
  private anchors: Map<string, Path | undefined> | undefined;

  constructor(
    private readonly root: unknown,
    private readonly subject: SchemaSubject,
    private readonly allocate: NameAllocator,
  ) {
    const dialect = isSchemaObject(root) ? root.$schema : undefined;
    this.refReplacesSiblings = typeof dialect === 'string' && /draft-0[3-7]\b/.test(dialect);
  }

  private diagnostic(path: Path | undefined, reason: string): SchemaDiagnostic {
    return { subject: this.subject, pointer: formatPointer(tokensOf(path)), reason };
  }

  private widen(path: Path | undefined, reason: string): TypeText {
    this.warnings.push(this.diagnostic(path, `${reason}; widened to unknown`));
    return UNKNOWN;
  }

  private fail(path: Path | undefined, reason: string): never {
    throw new SchemaFailure(this.diagnostic(path, reason));
  }

  /** Converts queued helpers until none are left (helpers may queue more). */
  drain(): void {
    for (let next = 0; next < this.queue.length; next++) {
      const helper = this.queue[next] as Helper;
      this.deps = helper.deps;
      helper.type = this.convert(helper.value, helper.path, 1);
    }
  }

  convert(schema: unknown, path: Path | undefined, level: number): TypeText {
    if (++this.conversions > CONVERSION_MAX_NODES) throw new ConversionBudgetExceeded();
    // Only a `$ref` into raw JSON (a `default`, say) can get here: real subschemas were measured.
    if (level > SCHEMA_MAX_DEPTH)
      this.fail(path, `nests subschemas more than ${SCHEMA_MAX_DEPTH} levels deep`);
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isSchemaObject(schema)) return this.widen(path, 'not a schema (an object or a boolean)');
    const problem = shapeProblem(schema) ?? unsupportedKeyword(schema);
    if (problem) return this.widen(path, problem);

    const parts: TypeText[] = [];
    if (typeof schema.$ref === 'string') {
      const target = this.reference(schema.$ref, at(path, '$ref'));
      if (this.refReplacesSiblings) return target;
      parts.push(target);
    }
    parts.push(this.base(schema, path, level));
    const list = (keyword: string) =>
      ((schema[keyword] as unknown[] | undefined) ?? []).map((sub, index) =>
        this.convert(sub, at(path, keyword, String(index)), level + 1),
      );
    parts.push(...list('allOf'));
    if (schema.anyOf) parts.push(unionOf(list('anyOf')));
    if (schema.oneOf) parts.push(unionOf(list('oneOf')));
    return intersectionOf(parts);
  }

  /** The part `type`, `enum` and `const` describe; `unknown` when they say nothing. */
  private base(schema: SchemaObject, path: Path | undefined, level: number): TypeText {
    const types = declaredTypes(schema);
    const ofTypes = () =>
      types ? unionOf(types.map((type) => this.ofType(type, schema, path, level))) : UNKNOWN;
    const values = Array.isArray(schema.enum)
      ? schema.enum
      : Object.hasOwn(schema, 'const')
        ? [schema.const]
        : undefined;
    if (!values) return ofTypes();
    if (values.some((value) => typeof value === 'object' && value !== null)) {
      this.warnings.push(
        this.diagnostic(path, "'enum' or 'const' holds objects or arrays; widened to its base type"),
      );
      return ofTypes();
    }
    const primitives = values as Array<string | number | boolean | null>;
    return unionOf(
      primitives.filter((value) => !types || types.some((type) => admits(type, value))).map(literal),
    );
  }

  private ofType(type: string, schema: SchemaObject, path: Path | undefined, level: number): TypeText {
    switch (type) {
      case 'object':
        return this.object(schema, path, level);
      case 'array':
        return this.array(schema, path, level);
      case 'integer':
        return atom('number');
      default:
        return atom(type);
    }
  }

  private object(schema: SchemaObject, path: Path | undefined, level: number): TypeText {
    const properties = (schema.properties ?? {}) as SchemaObject;
    const required = new Set((schema.required ?? []) as string[]);
    const members: Member[] = [];
    const valueTypes: TypeText[] = [];
    let anyOptional = false;
    for (const [name, sub] of Object.entries(properties)) {
      const type = this.convert(sub, at(path, 'properties', name), level + 1);
      const optional = !required.has(name);
      anyOptional ||= optional;
      valueTypes.push(type);
      members.push({
        doc: docComment(isSchemaObject(sub) ? sub.description : undefined),
        text: `${propertyKey(name)}${optional ? '?' : ''}: ${type.text}`,
      });
    }
    for (const name of required) {
      if (Object.hasOwn(properties, name)) continue;
      valueTypes.push(UNKNOWN);
      members.push({ doc: [], text: `${propertyKey(name)}: unknown` });
    }
    // Open objects (no `additionalProperties`, or `true`) say so with an `unknown` index signature;
    // `false` closes the object; a schema types the other members, and the index signature must
    // also admit every declared member's type (and `undefined` for optional ones).
    const extra =
      schema.additionalProperties === undefined
        ? UNKNOWN
        : this.convert(schema.additionalProperties, at(path, 'additionalProperties'), level + 1);
    if (extra.text === NEVER.text) {
      if (members.length === 0) members.push({ doc: [], text: '[key: string]: never' });
    } else {
      const index =
        extra.text === UNKNOWN.text
          ? UNKNOWN
          : unionOf([extra, ...valueTypes, ...(anyOptional ? [atom('undefined')] : [])]);
      members.push({ doc: [], text: `[key: string]: ${index.text}` });
    }
    return objectLiteral(members);
  }

  private array(schema: SchemaObject, path: Path | undefined, level: number): TypeText {
    if (schema.items === undefined) return arrayOf(UNKNOWN);
    const item = this.convert(schema.items, at(path, 'items'), level + 1);
    return item.text === NEVER.text ? atom('[]') : arrayOf(item);
  }

  private anchor(name: string): string[] | undefined {
    this.anchors ??= anchorsOf(this.root);
    return this.anchors.has(name) ? tokensOf(this.anchors.get(name)) : undefined;
  }

  /** A local `$ref` as its helper's name; external references are not fetched. */
  private reference(ref: string, path: Path | undefined): TypeText {
    if (!ref.startsWith('#')) return this.widen(path, 'external $ref is not fetched');
    const tokens = pointerTokens(ref) ?? this.anchor(ref.slice(1));
    const resolved = tokens ? resolvePointer(this.root, tokens) : { found: false };
    if (!tokens || !resolved.found) this.fail(path, 'local $ref does not resolve');
    const key = formatPointer(tokens);
    let helper = this.helpers.get(key);
    if (!helper) {
      const { server, tool, side } = this.subject;
      helper = {
        name: this.allocate([server, tool, side, tokens.at(-1) ?? 'root']),
        value: resolved.value,
        path: at(undefined, ...tokens),
        deps: new Set(),
      };
      this.helpers.set(key, helper);
      this.queue.push(helper);
    }
    this.deps.add(helper);
    return atom(helper.name);
  }

  /** Fails on the first helper found on a reference cycle reachable from the root. */
  rejectCycles(rootDeps: Set<Helper>): void {
    const state = new Map<Helper, 'open' | 'done'>();
    for (const start of rootDeps) {
      // Iterative depth-first search: a chain of thousands of definitions must not overflow.
      const stack: Array<{ helper: Helper; next: Iterator<Helper> }> = [];
      const enter = (helper: Helper) => {
        state.set(helper, 'open');
        stack.push({ helper, next: helper.deps.values() });
      };
      if (!state.has(start)) enter(start);
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as (typeof stack)[number];
        const step = top.next.next();
        if (step.done) {
          state.set(top.helper, 'done');
          stack.pop();
        } else if (state.get(step.value) === 'open') {
          this.fail(step.value.path, 'reference cycle through this definition');
        } else if (!state.has(step.value)) {
          enter(step.value);
        }
      }
    }
  }
}

function declaredTypes(schema: SchemaObject): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  // Without `type`, JSON Schema would accept any JSON value; tool schemas that leave it out and
  // list members mean an object (or, with `items`, an array), so that is what the type says.
  if (OBJECT_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword))) return ['object'];
  if (Object.hasOwn(schema, 'items')) return ['array'];
  return undefined;
}

function admits(type: string, value: string | number | boolean | null): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  return JSON_TYPES.has(type) && typeof value === type;
}

/**
 * Where each plain-name anchor (`$anchor: name`, or draft-07 `$id: '#name'`) is declared, the
 * first declaration winning: one walk with an explicit stack, positions as shared linked paths.
 */
function anchorsOf(root: unknown): Map<string, Path | undefined> {
  const anchors = new Map<string, Path | undefined>();
  const stack: Array<{ value: unknown; path: Path | undefined }> = [{ value: root, path: undefined }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { value, path } = entry;
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value)) {
      const { $anchor, $id } = value as SchemaObject;
      if (typeof $anchor === 'string' && !anchors.has($anchor)) anchors.set($anchor, path);
      if (typeof $id === 'string' && $id.startsWith('#') && !anchors.has($id.slice(1)))
        anchors.set($id.slice(1), path);
    }
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: at(path, key) });
  }
  return anchors;
}

/**
 * Converts one tool schema. Budgets first: deeper than the protocol allows fails, more nodes or
 * raw JSON than the budgets allow widens the whole schema. Then the schema, its helpers, and the
 * cycle check; a hard failure carries the position it concerns.
 */
/**
 * `within`: the tokens of the subschema whose type is wanted (a 2025 output envelope's
 * `properties/result`); references still resolve against the whole `schema`.
 */
export function convertSchema(
  schema: unknown,
  subject: SchemaSubject,
  allocate: NameAllocator,
  within: readonly string[] = [],
): Conversion {
  const exceeded = measureSchema(schema);
  const whole = { subject, pointer: '#' };
  if (exceeded?.kind === 'depth')
    return { ok: false, error: { ...whole, reason: exceeded.message }, warnings: [] };
  if (exceeded) {
    const warning = { ...whole, reason: `${exceeded.message}; widened to unknown` };
    return { ok: true, type: UNKNOWN.text, helpers: [], warnings: [warning] };
  }
  const converter = new Converter(schema, subject, allocate);
  try {
    const rootDeps = converter.deps;
    const start = within.reduce<unknown>((node, token) => (node as Record<string, unknown>)[token], schema);
    const type = converter.convert(start, at(undefined, ...within), 1);
    converter.drain();
    converter.rejectCycles(rootDeps);
    const helpers = [...converter.helpers.values()].map((helper) => ({
      name: helper.name,
      type: (helper.type ?? UNKNOWN).text,
    }));
    return { ok: true, type: type.text, helpers, warnings: converter.warnings };
  } catch (error) {
    if (error instanceof ConversionBudgetExceeded) {
      const reason = `expands through references to more than ${CONVERSION_MAX_NODES} subschemas; widened to unknown`;
      return { ok: true, type: UNKNOWN.text, helpers: [], warnings: [{ ...whole, reason }] };
    }
    if (error instanceof SchemaFailure)
      return { ok: false, error: error.diagnostic, warnings: converter.warnings };
    throw error;
  }
}
