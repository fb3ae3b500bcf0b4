/**
 * docs/error-codes.md is what scripts/error-reference.ts makes of src/errors.ts today, so an id
 * added, removed or re-documented there shows up on the page in the same change.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ERROR_REFERENCE,
  ERRORS_SOURCE,
  readErrorTable,
  renderErrorReference,
} from '../../scripts/error-reference.js';
import { MCPErrorCategories, MCPErrorCode } from '../../src/index.js';

describe('the error reference page', () => {
  const source = readFileSync(ERRORS_SOURCE, 'utf8');

  it('is what npm run docs:errors makes of src/errors.ts', () => {
    expect(
      readFileSync(ERROR_REFERENCE, 'utf8'),
      'docs/error-codes.md is out of date: run npm run docs:errors and commit',
    ).toBe(renderErrorReference(source));
  });

  it('lists every exported id once, with the category it is raised with', () => {
    const listed = readErrorTable(source).flatMap((section) =>
      section.entries.map(({ key, category }) => [`MCP_${key}`, category]),
    );
    expect(Object.fromEntries(listed)).toEqual(MCPErrorCategories);
    expect(listed).toHaveLength(Object.keys(MCPErrorCategories).length);
    for (const [key, id] of Object.entries(MCPErrorCode)) expect(id).toBe(`MCP_${key}`);
  });

  it('refuses a table entry without a JSDoc, naming the id', () => {
    const undocumented = source.replace(/\/\*\*[^\n]*\*\/\n(\s*CLIENT_UNKNOWN_SERVER:)/, '$1');
    expect(undocumented).not.toBe(source);
    expect(() => renderErrorReference(undocumented)).toThrow(
      'src/errors.ts: CLIENT_UNKNOWN_SERVER has no JSDoc saying what it means',
    );
  });
});
