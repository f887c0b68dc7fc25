/** Vendor conventions (public facts): the identity error body, and the form as the only body accepted. */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { hasRequestId } from '../../harness/checks/identity.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { IDENTITY_ERROR } from '../../generators/identity.ts';
import { callUserinfo, expectRefused, tokenOf } from './_userinfo.ts';

describe('identity userinfo: vendor conventions', () => {
  const refusals: Array<[string, (t: RequirementContext) => Promise<CapturedResponse>]> = [
    ['no Authorization header', (t) => callUserinfo(t, { token: null })],
    ['an unknown token', (t) => callUserinfo(t, { token: `pc-unknown-${randomUUID()}` })],
    ['a wrong client_secret', (t) => callUserinfo(t, { clientSecret: `pc-wrong-secret-${randomUUID()}` })],
    ['a form without client_id', (t) => callUserinfo(t, { clientId: null })],
    ['a token without the phone scope', (t) => callUserinfo(t, { token: tokenOf(t, 'withoutPhone') })],
  ];
  for (const [what, send] of refusals) {
    requirementTest('IDN-ERR-001', { row: `${what}: refused with the error body and X-Request-Id` }, async (t) => {
      const res = await expectRefused(t, () => send(t), what);
      t.expectNone([...conformsTo(res, IDENTITY_ERROR, t.id), ...hasRequestId(res, t.id)], res);
    });
  }

  requirementTest('IDN-MED-001', async (t) => {
    await expectRefused(t, () => callUserinfo(t, { asJson: true }));
  });
});
