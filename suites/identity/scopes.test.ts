/**
 * Spec 4.2 and 5.2: the token must carry profile, phone and email; a token lacking exactly one is
 * refused. Vendor conventions: the fields follow the OpenID Connect scope mapping (every field each
 * scope brings, none of a scope not granted), and sub is always there.
 */
import { describe } from 'vitest';
import { followsScopeMapping, hasSub, scopeFieldsServed } from '../../harness/checks/identity.ts';
import { requirementTest } from '../../harness/suite.ts';
import { callUserinfo, expectRefused, expectUserinfo, grantedScopes, peopleOf, tokenOf } from './_userinfo.ts';

const SCOPES = [['profile', 'withoutProfile'], ['phone', 'withoutPhone'], ['email', 'withoutEmail']] as const;

describe('identity userinfo: scopes', () => {
  for (const [scope, key] of SCOPES) {
    requirementTest('IDN-SCP-001', { row: `a token without the ${scope} scope (tokens.${key}) is refused with no user data` }, async (t) => {
      await expectRefused(t, () => callUserinfo(t, { token: tokenOf(t, key) }));
    });
  }

  for (const [scope] of SCOPES) {
    requirementTest('IDN-OID-003', { row: `every field of 2.2 the scope ${scope} brings is served to at least one person of the pool` }, async (t) => {
      const bodies = [];
      for (const person of peopleOf(t)) bodies.push(expectUserinfo(t, await callUserinfo(t, { token: person.token }), person.label));
      t.expectNone(scopeFieldsServed(bodies, scope, t.id), undefined, `main user and ${bodies.length - 1} person(s) of tokens.people`);
    });
  }

  requirementTest('IDN-OID-001', async (t) => {
    const granted = grantedScopes(t);
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(followsScopeMapping(expectUserinfo(t, res, person.label), granted, t.id), res, person.label);
    }
  });

  requirementTest('IDN-OID-002', async (t) => {
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(hasSub(expectUserinfo(t, res, person.label), t.id), res, person.label);
    }
  });
});
