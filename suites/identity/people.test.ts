/**
 * Spec 4.2, property-based: the target's pool of people (services.identity.tokens.people plus the
 * user of accessToken) times equivalent encodings of the form (field order, a charset parameter,
 * percent-encoding). Every combination is one request, so it gets the answer the request of 4.2 gets
 * for the same person: the userinfo with the same fields of 2.2. What those fields hold is judged by
 * IDN-FMT-001 and IDN-FMT-002; a person whose request of 4.2 is not answered with userinfo is
 * IDN-RSP-001's finding and is not judged here. The auth scheme in another letter case and an extra
 * unknown form field are a policy of their own (RFC 9110, our reading of 4.2).
 */
import { PromiseMemo } from '../../harness/test/memo.ts';
import fc from 'fast-check';
import { describe } from 'vitest';
import { noServerError } from '../../harness/checks/answer.ts';
import { answeredWithUserinfo, isUserinfoAnswer, sameFieldsOf22 } from '../../harness/identity/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../harness/test/suite.ts';
import { describeVariation, requestVariation, type RequestVariationConstraints } from '../../generators/identity/userinfo.ts';
import { sendUserinfo, peopleOf } from '../../harness/identity/client.ts';

async function overPeople(t: RequirementContext, constraints: RequestVariationConstraints): Promise<void> {
  const people = peopleOf(t);
  // The request of 4.2 for each person, asked once per test: what every variation is compared with.
  const canonical = new PromiseMemo<number, CapturedResponse>('keep');
  const canonicalOf = (i: number) => canonical.get(i, () => sendUserinfo(t, { token: people[i].token }));
  let judged = 0;
  // Indices, not tokens, go into the arbitrary: fast-check may print its values.
  const cases = fc.record({ person: fc.nat({ max: people.length - 1 }), variation: requestVariation(constraints) });
  await t.property(cases, async ({ person, variation }) => {
    const plain = await canonicalOf(person);
    t.expectNone(noServerError(plain, t.id), plain, `${people[person].label}; the request of 4.2`);
    if (!isUserinfoAnswer(plain)) return;
    const res = await sendUserinfo(t, { token: people[person].token, variation });
    const note = `${people[person].label}; ${describeVariation(variation)}`;
    t.expectNone(answeredWithUserinfo(res, t.id), res, note);
    // One token names one user in every answer: that is IDN-GEN-002's, so sub is left to it.
    t.expectNone(sameFieldsOf22(plain.json, res.json, t.id, ['sub']), res, note);
    judged++;
  });
  if (judged === 0) {
    throw inconclusive(
      'PRECONDITION_MISSING',
      'no person the property drew was answered with userinfo to the request of 4.2, so no encoding could be compared with it; IDN-RSP-001 judges those answers',
    );
  }
}

describe('identity userinfo: generated requests over the pool of people', () => {
  requirementTest('IDN-GEN-001', (t) => overPeople(t, { extraFields: false, schemeCase: false }));
  requirementTest('IDN-GEN-003', (t) => overPeople(t, { beyondTheForm: true }));
});
