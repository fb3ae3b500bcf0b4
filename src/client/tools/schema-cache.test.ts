import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import { describe, expect, it } from 'vitest';
import { compiledSchema } from './schema-cache.js';

describe('compiledSchema', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;

  it('compiles a schema text once per validator, and the result validates', async () => {
    const first = compiledSchema(structuredClone(schema));
    expect(compiledSchema(structuredClone(schema))).toBe(first);
    expect(await first['~standard'].validate({ n: 1 })).toEqual({ value: { n: 1 } });
    expect(await first['~standard'].validate({ n: 'x' })).toHaveProperty('issues');
  });

  it('keeps validators apart, so a cf-worker validator gets its own compilation', async () => {
    const validator = new CfWorkerJsonSchemaValidator();
    const viaCfWorker = compiledSchema(structuredClone(schema), validator);
    expect(viaCfWorker).not.toBe(compiledSchema(structuredClone(schema)));
    expect(compiledSchema(structuredClone(schema), validator)).toBe(viaCfWorker);
    expect(await viaCfWorker['~standard'].validate({ n: 'x' })).toHaveProperty('issues');
  });
});
