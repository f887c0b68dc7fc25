/**
 * A production target allows reads only: a 3-NDFL test that needs a workflow call is skipped with
 * SAFETY_REFUSED, never a crash (issue: NDF-ERR-001, NDF-ERR-002 and NDF-WF-005 threw "Cannot read
 * properties of undefined" on kind production).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../harness/errors.ts';
import { HttpClient } from '../../harness/request/http.ts';
import { Ndfl3Api } from '../../harness/business/ndfl3/api.ts';
import { POOL_USERS, RequestSource } from '../../harness/business/ndfl3/requests.ts';
import { LocalPacer } from '../../harness/request/pacer.ts';
import { loadTarget } from '../../harness/config/target.ts';
import { tempDir } from '../helpers.ts';

function sourceFor(kind: string, safety: Record<string, unknown> = {}): RequestSource {
  const file = join(tempDir(), 'target.yaml');
  writeFileSync(
    file,
    stringify({
      name: kind,
      kind,
      safety,
      services: { business: { url: 'https://b.test', token: 'tok3n-value', ndfl3: { requestPool: ['a'] } } },
    }),
  );
  const target = loadTarget(file, {});
  return new RequestSource(new Ndfl3Api(target, new HttpClient(target, { pacer: new LocalPacer() })), POOL_USERS[0]);
}

describe('3-NDFL workflow calls on a production target', () => {
  it('are refused by the safety gate as a skip, allowances or not', () => {
    for (const safety of [{}, { allowMoney: true, allowDestructive: true }]) {
      let error: unknown;
      try {
        sourceFor('production', safety).usable();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('SAFETY_REFUSED');
      expect((error as ToolError).message).toContain('production');
    }
  });

  it('are the write ones on staging, and all of them on the sandbox', () => {
    expect(
      sourceFor('staging')
        .usable()
        .map((op) => op.sideEffect),
    ).not.toContain('money');
    expect(sourceFor('sandbox').usable()).toHaveLength(10);
  });
});
