/** Spec 2.2 and 4.2: what a partner gets for a token with profile, phone and email. */
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { answeredWithObject, answeredWithUserinfo, nameHoldsFamilyAndGiven, sameUser } from '../../harness/checks/identity.ts';
import { ToolError } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/suite.ts';
import { USERINFO } from '../../generators/identity.ts';
import { callUserinfo, peopleOf } from './_userinfo.ts';

describe('identity userinfo: the 200 answer', () => {
  requirementTest('IDN-RSP-001', async (t) => {
    const res = await callUserinfo(t);
    t.expectNone(answeredWithUserinfo(res, t.id), res);
  });

  requirementTest('IDN-FMT-001', async (t) => {
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(answeredWithObject(res, t.id), res, person.label);
      t.expectNone(conformsTo(res, USERINFO, t.id), res, person.label);
    }
  });

  requirementTest('IDN-FMT-002', async (t) => {
    let checked = 0;
    for (const person of peopleOf(t)) {
      const res = await callUserinfo(t, { token: person.token });
      t.expectNone(answeredWithObject(res, t.id), res, person.label);
      t.expectNone(nameHoldsFamilyAndGiven(res.json, t.id), res, person.label);
      const body = res.json as Record<string, unknown>;
      if (['name', 'family_name', 'given_name'].every((k) => typeof body[k] === 'string')) checked++;
    }
    // Absence is allowed, but a test that looked at no name at all has proven nothing: skip, saying why.
    if (checked === 0) {
      throw new ToolError('CREDENTIAL_MISSING', 'no person of services.identity (accessToken, tokens.people) has name, family_name and given_name: list one who has');
    }
  });

  requirementTest('IDN-GEN-002', async (t) => {
    for (const person of peopleOf(t)) {
      const first = await callUserinfo(t, { token: person.token });
      const second = await callUserinfo(t, { token: person.token });
      t.expectNone([...answeredWithObject(first, t.id), ...answeredWithObject(second, t.id)], first.status === 200 ? second : first, person.label);
      t.expectNone(sameUser(first.json, second.json, t.id), second, person.label);
    }
  });
});
