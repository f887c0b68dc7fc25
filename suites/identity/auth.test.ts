/**
 * Spec 4.2 and 5.2: bearer access token plus client_id and client_secret, partner clients only, users
 * who consented only. The spec fixes no status for a refusal: neither 2xx nor 5xx, without user data,
 * next to the valid call answered 200 in the same run.
 */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { requirementTest, type RequirementContext } from '../../harness/test/suite.ts';
import { credentialOf } from '../../harness/config/target.ts';
import { sendUserinfo, expectRefused, nearMissOf, tokenOf } from '../../harness/identity/client.ts';

describe('identity userinfo: who may call', () => {
  requirementTest('IDN-AUT-001', async (t) => {
    await expectRefused(t, await sendUserinfo(t, { token: null }));
  });

  const badAuthorizations: Array<[string, (t: RequirementContext) => string]> = [
    ['an unknown token', () => `Bearer pc-unknown-${randomUUID()}`],
    ['the access token with one character changed', (t) => `Bearer ${nearMissOf(t, credentialOf(t.target, 'identity', 'accessToken'))}`],
    ['a malformed token (with spaces)', () => 'Bearer not a token at all'],
    ['an empty token', () => 'Bearer'],
    [
      'the access token under the Basic scheme',
      (t) => `Basic ${Buffer.from(credentialOf(t.target, 'identity', 'accessToken')).toString('base64')}`,
    ],
  ];
  for (const [what, authorization] of badAuthorizations) {
    requirementTest('IDN-AUT-002', { row: `${what} is refused with no user data` }, async (t) => {
      await expectRefused(t, await sendUserinfo(t, { authorization: authorization(t) }));
    });
  }

  const wrongSecrets: Array<[string, (t: RequirementContext) => string]> = [
    ['a random client_secret', () => `pc-wrong-secret-${randomUUID()}`],
    ['the client_secret with one character changed', (t) => nearMissOf(t, credentialOf(t.target, 'identity', 'clientSecret'))],
  ];
  for (const [what, secret] of wrongSecrets) {
    requirementTest('IDN-CLI-001', { row: `${what} is refused with no user data` }, async (t) => {
      await expectRefused(t, await sendUserinfo(t, { clientSecret: secret(t) }));
    });
  }

  for (const [what, fields] of [
    ['a form without client_id', { clientId: null }],
    ['a form without client_secret', { clientSecret: null }],
    ['an empty form', { clientId: null, clientSecret: null }],
  ] as const) {
    requirementTest('IDN-CLI-002', { row: `${what} is refused with no user data` }, async (t) => {
      await expectRefused(t, await sendUserinfo(t, fields));
    });
  }

  requirementTest('IDN-CLI-003', async (t) => {
    await expectRefused(t, await sendUserinfo(t, { clientId: `pc-unknown-client-${randomUUID()}` }));
  });

  requirementTest('IDN-PRT-001', async (t) => {
    await expectRefused(
      t,
      await sendUserinfo(t, {
        token: tokenOf(t, 'nonPartner'),
        clientId: credentialOf(t.target, 'identity', 'nonPartnerClientId'),
        clientSecret: credentialOf(t.target, 'identity', 'nonPartnerClientSecret'),
      }),
    );
  });

  requirementTest('IDN-CNS-001', async (t) => {
    await expectRefused(t, await sendUserinfo(t, { token: tokenOf(t, 'withoutConsent') }));
  });
});
