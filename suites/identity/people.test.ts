/**
 * Spec 4.2, property-based: the target's pool of people (services.identity.tokens.people plus the
 * user of accessToken) times equivalent encodings of the request. Every combination must get the
 * 200 answer of 2.2; a failure names the person's place in the pool and the encoding.
 */
import fc from 'fast-check';
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { answeredWithUserinfo, nameHoldsFamilyAndGiven } from '../../harness/checks/identity.ts';
import { requirementTest } from '../../harness/suite.ts';
import { describeVariation, requestVariation, USERINFO } from '../../generators/identity.ts';
import { callUserinfo, peopleOf } from './_userinfo.ts';

describe('identity userinfo: generated requests over the pool of people', () => {
  requirementTest('IDN-GEN-001', async (t) => {
    const people = peopleOf(t);
    // Indices, not tokens, go into the arbitrary: fast-check may print its values.
    const cases = fc.record({ person: fc.nat({ max: people.length - 1 }), variation: requestVariation() });
    await t.property(cases, async ({ person, variation }) => {
      const res = await callUserinfo(t, { token: people[person].token, variation });
      const answered = answeredWithUserinfo(res, t.id);
      const failures = answered.length ? answered : [...conformsTo(res, USERINFO, t.id), ...nameHoldsFamilyAndGiven(res.json, t.id)];
      t.expectNone(failures, res, `${people[person].label}; ${describeVariation(variation)}`);
    });
  });
});
