/**
 * The public API report (etc/api/*.d.mts, scripts/api-report.ts) matches the current build, so
 * every change to what `mastra-mcp` and `mastra-mcp/redis` export shows up in review as a change
 * to those files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ENTRIES, apiReport, REPORT_DIR } from '../../scripts/api-report.js';
import { type BuiltPackage, builtPackage } from '../support/built-package.js';

let built: BuiltPackage | undefined;
beforeAll(async () => {
  built = await builtPackage('api-report');
}, 120_000);
afterAll(() => built?.dispose());

describe('the public API report', () => {
  it('is the surface the built declarations declare', () => {
    const current = apiReport(join((built as BuiltPackage).dir, 'dist'));
    for (const name of Object.keys(API_ENTRIES) as Array<keyof typeof API_ENTRIES>) {
      const file = join(REPORT_DIR, name);
      const checkedIn = existsSync(file) ? readFileSync(file, 'utf8') : '';
      expect(
        current[name],
        `the public API changed (etc/api/${name}): run npm run api:update and commit the report`,
      ).toBe(checkedIn);
    }
  });
});
