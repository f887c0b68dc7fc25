/**
 * Spec 4.2 and 5.2: the token must carry profile, phone and email; a token lacking exactly one is
 * refused. Vendor conventions: the fields follow the OpenID Connect scope mapping (every field each
 * scope brings, none of a scope not granted), and sub is always there.
 */
import { describe } from 'vitest';
import { CONSENTED_KINDS, consentedKindsServed, followsScopeMapping, hasSub, scopeFieldsServed } from '../../harness/identity/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { askPeople, sendUserinfo, expectRefused, grantedScopes, servedPeople, tokenOf } from '../../harness/identity/client.ts';

const SCOPES = [
  ['profile', 'withoutProfile'],
  ['phone', 'withoutPhone'],
  ['email', 'withoutEmail'],
] as const;

describe('identity userinfo: scopes', () => {
  for (const [scope, key] of SCOPES) {
    requirementTest(
      'IDN-SCP-001',
      { row: `a token without the ${scope} scope (tokens.${key}) is refused with no user data` },
      async (t) => {
        await expectRefused(t, await sendUserinfo(t, { token: tokenOf(t, key) }));
      },
    );
  }

  for (const [scope] of SCOPES) {
    requirementTest(
      'IDN-OID-003',
      { row: `every field of 2.2 the scope ${scope} brings is served to at least one person of the pool` },
      async (t) => {
        const served = servedPeople(t, await askPeople(t));
        const bodies = served.map((p) => p.body);
        // That the pool is served the scope's consented data at all is IDN-SCP-002's rule: without it, this row has nothing to add.
        const kinds = CONSENTED_KINDS.filter((k) => k.scope === scope);
        if (consentedKindsServed(bodies, t.id, kinds).length) {
          throw inconclusive(
            'PRECONDITION_MISSING',
            `no person of the pool is served ${kinds.map((k) => k.kind).join(', ')} (IDN-SCP-002's finding), so which fields the scope ${scope} brings cannot be told`,
          );
        }
        t.expectNone(scopeFieldsServed(bodies, scope, t.id), undefined, `${served.length} person(s) answered with userinfo`);
      },
    );
  }

  requirementTest('IDN-OID-001', async (t) => {
    const granted = grantedScopes(t);
    for (const person of servedPeople(t, await askPeople(t)))
      t.expectNone(followsScopeMapping(person.body, granted, t.id), person.res, person.label);
  });

  requirementTest('IDN-OID-002', async (t) => {
    for (const person of servedPeople(t, await askPeople(t))) t.expectNone(hasSub(person.body, t.id), person.res, person.label);
  });
});
