/**
 * Spec 4.2 and 5.2: bearer access token plus client_id and client_secret, partner clients only, users
 * who consented only. The spec fixes no status for a refusal: any 4xx (but 429) without user data.
 */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { refusedWithoutData } from '../../harness/checks/identity.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { credentialOf } from '../../harness/target.ts';
import { callUserinfo, nearMissOf, tokenOf } from './_userinfo.ts';

describe('identity userinfo: who may call', () => {
  requirementTest('IDN-AUT-001', async (t) => {
    const res = await callUserinfo(t, { token: null });
    t.expectNone(refusedWithoutData(res, t.id), res);
  });

  const badAuthorizations: Array<[string, (t: RequirementContext) => string]> = [
    ['an unknown token', () => `Bearer pc-unknown-${randomUUID()}`],
    ['the access token with one character changed', (t) => `Bearer ${nearMissOf(t, credentialOf(t.target, 'identity', 'accessToken'))}`],
    ['a malformed token (with spaces)', () => 'Bearer not a token at all'],
    ['an empty token', () => 'Bearer'],
    ['the access token under the Basic scheme', (t) => `Basic ${Buffer.from(credentialOf(t.target, 'identity', 'accessToken')).toString('base64')}`],
  ];
  for (const [what, authorization] of badAuthorizations) {
    requirementTest('IDN-AUT-002', { row: `${what} is refused with a 4xx and no user data` }, async (t) => {
      const res = await callUserinfo(t, { authorization: authorization(t) });
      t.expectNone(refusedWithoutData(res, t.id), res);
    });
  }

  const wrongSecrets: Array<[string, (t: RequirementContext) => string]> = [
    ['a random client_secret', () => `pc-wrong-secret-${randomUUID()}`],
    ['the client_secret with one character changed', (t) => nearMissOf(t, credentialOf(t.target, 'identity', 'clientSecret'))],
  ];
  for (const [what, secret] of wrongSecrets) {
    requirementTest('IDN-CLI-001', { row: `${what} is refused with a 4xx and no user data` }, async (t) => {
      const res = await callUserinfo(t, { clientSecret: secret(t) });
      t.expectNone(refusedWithoutData(res, t.id), res);
    });
  }

  for (const [what, fields] of [
    ['a form without client_id', { clientId: null }],
    ['a form without client_secret', { clientSecret: null }],
    ['an empty form', { clientId: null, clientSecret: null }],
  ] as const) {
    requirementTest('IDN-CLI-002', { row: `${what} is refused with a 4xx and no user data` }, async (t) => {
      const res = await callUserinfo(t, fields);
      t.expectNone(refusedWithoutData(res, t.id), res);
    });
  }

  requirementTest('IDN-CLI-003', async (t) => {
    const res = await callUserinfo(t, { clientId: `pc-unknown-client-${randomUUID()}` });
    t.expectNone(refusedWithoutData(res, t.id), res);
  });

  requirementTest('IDN-PRT-001', async (t) => {
    const res = await callUserinfo(t, {
      token: tokenOf(t, 'nonPartner'),
      clientId: credentialOf(t.target, 'identity', 'nonPartnerClientId'),
      clientSecret: credentialOf(t.target, 'identity', 'nonPartnerClientSecret'),
    });
    t.expectNone(refusedWithoutData(res, t.id), res);
  });

  requirementTest('IDN-CNS-001', async (t) => {
    const res = await callUserinfo(t, { token: tokenOf(t, 'withoutConsent') });
    t.expectNone(refusedWithoutData(res, t.id), res);
  });
});
