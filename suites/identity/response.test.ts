/**
 * Spec 2.2 and 4.2: what a partner gets for a token with profile, phone and email of a user who
 * consented to full name, e-mail and phone number: 200 application/json with a name field, email and
 * phone_number, every field in the type and format of 2.2.
 */
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { nameHoldsFamilyAndGiven, sameUser } from '../../harness/checks/identity.ts';
import { ToolError } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/suite.ts';
import { USERINFO } from '../../generators/identity.ts';
import { callUserinfo, expectUserinfo, peopleOf } from './_userinfo.ts';

describe('identity userinfo: the 200 answer', () => {
  requirementTest('IDN-RSP-001', async (t) => {
    expectUserinfo(t, await callUserinfo(t));
  });

  requirementTest('IDN-SCP-002', async (t) => {
    for (const person of peopleOf(t)) expectUserinfo(t, await callUserinfo(t, { token: person.token }), person.label);
  });

  requirementTest('IDN-FMT-001', async (t) => {
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      expectUserinfo(t, res, person.label);
      t.expectNone(conformsTo(res, USERINFO, t.id), res, person.label);
    }
  });

  requirementTest('IDN-FMT-002', async (t) => {
    let checked = 0;
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      const body = expectUserinfo(t, res, person.label);
      t.expectNone(nameHoldsFamilyAndGiven(body, t.id), res, person.label);
      if (['name', 'family_name', 'given_name'].every((k) => typeof body[k] === 'string')) checked++;
    }
    // A name alone is allowed, but a test that compared no name with its parts has proven nothing.
    if (checked === 0) {
      throw new ToolError('FIXTURE_MISSING', 'no person of services.identity (accessToken, tokens.people) is served name, family_name and given_name together: list one who is');
    }
  });

  requirementTest('IDN-GEN-002', async (t) => {
    for (const person of peopleOf(t)) {
      const first = await callUserinfo(t, { token: person.token });
      const second = await callUserinfo(t, { token: person.token });
      expectUserinfo(t, first, person.label);
      expectUserinfo(t, second, person.label);
      t.expectNone(sameUser(first.json, second.json, t.id), second, person.label);
    }
  });
});
