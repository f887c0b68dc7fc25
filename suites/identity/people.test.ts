/**
 * Spec 4.2, property-based: the target's pool of people (services.identity.tokens.people plus the
 * user of accessToken) times equivalent encodings of the form (field order, a charset parameter,
 * percent-encoding). Every combination must get the 200 answer of 2.2 with the consented data; a
 * failure names the person's place in the pool and the encoding. The auth scheme in another letter
 * case and an extra unknown form field are a policy of their own (RFC 9110, our reading of 4.2).
 */
import fc from 'fast-check';
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { nameHoldsFamilyAndGiven } from '../../harness/checks/identity.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { describeVariation, requestVariation, USERINFO, type RequestVariationConstraints } from '../../generators/identity.ts';
import { callUserinfo, expectUserinfo, peopleOf } from './_userinfo.ts';

async function overPeople(t: RequirementContext, constraints: RequestVariationConstraints): Promise<void> {
  const people = peopleOf(t);
  // Indices, not tokens, go into the arbitrary: fast-check may print its values.
  const cases = fc.record({ person: fc.nat({ max: people.length - 1 }), variation: requestVariation(constraints) });
  await t.property(cases, async ({ person, variation }) => {
    const res = await callUserinfo(t, { token: people[person].token, variation });
    const note = `${people[person].label}; ${describeVariation(variation)}`;
    const body = expectUserinfo(t, res, note);
    t.expectNone([...conformsTo(res, USERINFO, t.id), ...nameHoldsFamilyAndGiven(body, t.id)], res, note);
  });
}

describe('identity userinfo: generated requests over the pool of people', () => {
  requirementTest('IDN-GEN-001', (t) => overPeople(t, { extraFields: false, schemeCase: false }));
  requirementTest('IDN-GEN-003', (t) => overPeople(t, { beyondTheForm: true }));
});
