/**
 * Spec 2.2 and 4.2: what a partner gets for a token with profile, phone and email of a user who
 * consented to full name, e-mail and phone number: 200 application/json with the fields of 2.2, every
 * field in the type and format of 2.2, and each kind of consented data served to the pool. A person
 * may lack some data ("not a fixed list"); the checks of the fields judge the people answered with
 * userinfo, and are inconclusive when none of them holds what they judge.
 */
import { describe } from 'vitest';
import { noServerError, isServerError } from '../../harness/checks/answer.ts';
import { conformsTo } from '../../harness/checks/body.ts';
import {
  answeredWithUserinfo,
  consentedKindsServed,
  isPhoneOf22,
  isUserinfoAnswer,
  nameHoldsFamilyAndGiven,
  phoneIsE164,
  sameUser,
} from '../../harness/identity/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { USERINFO } from '../../generators/identity/userinfo.ts';
import { askPeople, sendUserinfo, peopleOf, servedPeople } from '../../harness/identity/client.ts';

const POOL = 'services.identity (accessToken, tokens.people)';

describe('identity userinfo: the 200 answer', () => {
  requirementTest('IDN-RSP-001', async (t) => {
    for (const a of await askPeople(t)) t.expectNone(answeredWithUserinfo(a.res, t.id), a.res, a.label);
  });

  requirementTest('IDN-SCP-002', async (t) => {
    const served = servedPeople(t, await askPeople(t));
    t.expectNone(
      consentedKindsServed(
        served.map((p) => p.body),
        t.id,
      ),
      undefined,
      `${served.length} person(s) of ${POOL} answered with userinfo`,
    );
  });

  requirementTest('IDN-FMT-001', async (t) => {
    for (const person of servedPeople(t, await askPeople(t)))
      t.expectNone(conformsTo(person.res, USERINFO, t.id), person.res, person.label);
  });

  requirementTest('IDN-FMT-002', async (t) => {
    let checked = 0;
    for (const person of servedPeople(t, await askPeople(t))) {
      t.expectNone(nameHoldsFamilyAndGiven(person.body, t.id), person.res, person.label);
      if (['name', 'family_name', 'given_name'].every((k) => typeof person.body[k] === 'string')) checked++;
    }
    // A name alone is allowed, but a test that compared no name with its parts has proven nothing.
    if (checked === 0)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `no person of ${POOL} is served name, family_name and given_name together, so no name could be compared with its parts: list one who is`,
      );
  });

  requirementTest('IDN-FMT-003', async (t) => {
    let checked = 0;
    for (const person of servedPeople(t, await askPeople(t))) {
      t.expectNone(phoneIsE164(person.body, t.id), person.res, person.label);
      if (isPhoneOf22(person.body.phone_number)) checked++;
    }
    // A phone_number that is not '+' and digits at all is IDN-FMT-001's finding.
    if (checked === 0)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `no person of ${POOL} is served a phone_number in the form of 2.2, so none could be judged`,
      );
  });

  requirementTest('IDN-GEN-002', async (t) => {
    let compared = 0;
    for (const person of peopleOf(t)) {
      const first = await sendUserinfo(t, { token: person.token });
      const second = await sendUserinfo(t, { token: person.token });
      t.expectNone(
        [...noServerError(first, t.id), ...noServerError(second, t.id)],
        isServerError(first.status) ? first : second,
        person.label,
      );
      // A person not served the first time is IDN-SCP-002's finding; the repeat of an answer is judged here.
      if (!isUserinfoAnswer(first)) continue;
      t.expectNone(answeredWithUserinfo(second, t.id), second, `${person.label}: the second of two calls with one token`);
      t.expectNone(sameUser(first.json, second.json, t.id), second, person.label);
      compared++;
    }
    if (compared === 0)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `no person of ${POOL} was answered with userinfo, so no two answers could be compared; IDN-RSP-001 judges those answers`,
      );
  });
});
