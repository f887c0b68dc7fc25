/**
 * How refusals are written, and the form as the only body accepted. Part 7 shows no userinfo error, so
 * a JSON refusal body is our reading (policy) and the vendor's error body a vendor convention.
 */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { hasRequestId } from '../../harness/identity/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../harness/test/suite.ts';
import { IDENTITY_ERROR } from '../../generators/identity/userinfo.ts';
import { sendUserinfo, expectRefused, tokenOf } from '../../harness/identity/client.ts';

describe('identity userinfo: how refusals are written', () => {
  // Each case with the requirement that it is refused at all, with no user data: how the refusal is written takes that as given.
  const refusals: Array<[string, string, (t: RequirementContext) => Promise<CapturedResponse>]> = [
    ['no Authorization header', 'IDN-AUT-001', (t) => sendUserinfo(t, { token: null })],
    ['an unknown token', 'IDN-AUT-002', (t) => sendUserinfo(t, { token: `pc-unknown-${randomUUID()}` })],
    ['a wrong client_secret', 'IDN-CLI-001', (t) => sendUserinfo(t, { clientSecret: `pc-wrong-secret-${randomUUID()}` })],
    ['a form without client_id', 'IDN-CLI-002', (t) => sendUserinfo(t, { clientId: null })],
    ['a token without the phone scope', 'IDN-SCP-001', (t) => sendUserinfo(t, { token: tokenOf(t, 'withoutPhone') })],
  ];
  for (const [what, refusalOf, send] of refusals) {
    requirementTest('IDN-ERR-001', { row: `${what}: refused with the error body and X-Request-Id` }, async (t) => {
      const res = await expectRefused(t, await send(t), { note: what, refusalOf });
      t.expectNone([...conformsTo(res, IDENTITY_ERROR, t.id), ...hasRequestId(res, t.id)], res);
    });
    requirementTest('IDN-ERR-002', { row: `${what}: a refusal body, if any, is JSON` }, async (t) => {
      const res = await expectRefused(t, await send(t), { note: what, refusalOf });
      t.expectNone(jsonWhereBody(res, t.id), res, what);
      if (res.rawBody === '')
        throw inconclusive('NOT_SUPPORTED', `the refusal (${res.status}) has no body, so how its body is written cannot be judged`);
    });
  }

  requirementTest('IDN-MED-001', async (t) => {
    await expectRefused(t, await sendUserinfo(t, { asJson: true }));
  });
});
