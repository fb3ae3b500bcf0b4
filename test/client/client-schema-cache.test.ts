import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { describe, expect, it } from 'vitest';
import { inputSchemaFor } from '../../src/client/tools/schema-cache.js';

/** A real validator that counts its compilations. */
function counting(inner: jsonSchemaValidator = new CfWorkerJsonSchemaValidator()) {
  const seen: JsonSchemaType[] = [];
  const validator: jsonSchemaValidator = {
    getValidator: (schema) => {
      seen.push(schema);
      return inner.getValidator(schema);
    },
  };
  return { validator, seen };
}

describe('inputSchemaFor', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;

  it('compiles lazily, once per schema text and validator, and the result validates', async () => {
    const { validator, seen } = counting();
    const first = inputSchemaFor(structuredClone(schema), validator, { eager: false });
    const second = inputSchemaFor(structuredClone(schema), validator, { eager: false });
    expect(seen).toHaveLength(0);
    expect(await first['~standard'].validate({ n: 1 })).toEqual({ value: { n: 1 } });
    expect(await second['~standard'].validate({ n: 'x' })).toHaveProperty('issues');
    expect(seen).toHaveLength(1);
    expect(first['~standard'].jsonSchema.input()).toEqual(schema);
  });

  it('compiles at once when eager, so a schema the validator rejects fails at build time', () => {
    const { validator, seen } = counting();
    inputSchemaFor({ type: 'object', properties: { m: { type: 'string' } } }, validator, { eager: true });
    expect(seen).toHaveLength(1);
    expect(() =>
      inputSchemaFor({ type: 'nonsense' } as unknown as JsonSchemaType, undefined, { eager: true }),
    ).toThrow();
    // Lazily, the same schema only fails when a call validates against it, as a validation issue.
    const lazy = inputSchemaFor({ type: 'nonsense' } as unknown as JsonSchemaType, undefined, {
      eager: false,
    });
    expect(lazy['~standard'].validate({})).toEqual({
      issues: [{ message: expect.stringContaining("the tool's input schema cannot be used") }],
    });
  });

  it('keeps validators apart: each gets its own compilation', () => {
    const a = counting();
    const b = counting();
    inputSchemaFor(structuredClone(schema), a.validator, { eager: true });
    inputSchemaFor(structuredClone(schema), b.validator, { eager: true });
    inputSchemaFor(structuredClone(schema), a.validator, { eager: true });
    expect([a.seen.length, b.seen.length]).toEqual([1, 1]);
  });
});
