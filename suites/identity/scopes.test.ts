/**
 * Spec 4.2 and 5.2: the token must carry profile, phone and email. Vendor conventions: the fields
 * follow the OpenID Connect scope mapping, and sub is always there.
 */
import { describe } from 'vitest';
import { answeredWithObject, followsScopeMapping, hasSub, refusedWithoutData } from '../../harness/checks/identity.ts';
import { requirementTest } from '../../harness/suite.ts';
import { callUserinfo, grantedScopes, peopleOf, tokenOf } from './_userinfo.ts';

describe('identity userinfo: scopes', () => {
  for (const [scope, key] of [['profile', 'withoutProfile'], ['phone', 'withoutPhone'], ['email', 'withoutEmail']] as const) {
    requirementTest('IDN-SCP-001', { row: `a token without the ${scope} scope (tokens.${key}) is refused with a 4xx and no user data` }, async (t) => {
      const res = await callUserinfo(t, { token: tokenOf(t, key) });
      t.expectNone(refusedWithoutData(res, t.id), res);
    });
  }

  requirementTest('IDN-OID-001', async (t) => {
    const granted = grantedScopes(t);
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(answeredWithObject(res, t.id), res, person.label);
      t.expectNone(followsScopeMapping(res.json, granted, t.id), res, person.label);
    }
  });

  requirementTest('IDN-OID-002', async (t) => {
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(answeredWithObject(res, t.id), res, person.label);
      t.expectNone(hasSub(res.json, t.id), res, person.label);
    }
  });
});
