/**
 * Identity userinfo (spec 2.2, 4.2, 5.2): POST {id_url}/userinfo/userinfo with a bearer access token
 * and the form fields client_id and client_secret (application/x-www-form-urlencoded). 200 with the
 * person's claims for the granted scopes; refusals carry the vendor error body
 * { errorId, errorMessage, errorCode } and every answer an X-Request-Id header (public facts). The
 * handler is handler.ts; its faults (faults.ts) are edits around it.
 */
import { incomingOf } from '../../exchange.ts';
import { modifiersOf, route } from '../../faults/modifiers.ts';
import { limitService } from '../../service-limit.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { accessTable, peopleTokens } from './access.ts';
import { identityFaults } from './faults.ts';
import { identityLatitudes } from './latitudes.ts';
import { refusalAnswer, refuse } from './answers.ts';
import { requestIdOf, RULES, userinfoHandler, type UserinfoShape } from './handler.ts';

export const IDENTITY_PREFIX = '/identity';
export const USERINFO_PATH = '/userinfo/userinfo';

export { identityFaults as faults } from './faults.ts';
export { identityLatitudes as latitudes } from './latitudes.ts';

/** Fixed development credentials (documented in README.md next to this file). */
export const credentials = {
  accessToken: 'dev-idn-token-main-profile-phone-email',
  clientId: 'dev-idn-partner-client',
  clientSecret: 'dev-idn-partner-client-secret',
  nonPartnerClientId: 'dev-idn-retail-client',
  nonPartnerClientSecret: 'dev-idn-retail-client-secret',
  tokenWithoutProfile: 'dev-idn-token-main-phone-email',
  tokenWithoutPhone: 'dev-idn-token-main-profile-email',
  tokenWithoutEmail: 'dev-idn-token-main-profile-phone',
  tokenWithoutConsent: 'dev-idn-token-unconsented-user',
  tokenNonPartner: 'dev-idn-token-retail-client',
  /** The pool's tokens are this prefix plus -01 to -08 (one key, so that an override renames them all). */
  peopleTokenPrefix: 'dev-idn-token-person',
};

/**
 * The vendor publishes no limit for userinfo; the sandbox's own, for the whole service, declared in its
 * target file and enforced: high, since it is loopback and only its declared limit paces its runs.
 */
export const IDENTITY_LIMIT = { requests: 500, perSeconds: 1 };

export const service: SandboxService = {
  area: 'identity',
  prefix: IDENTITY_PREFIX,

  register(app, ctx: ServiceContext) {
    limitService(app, IDENTITY_LIMIT, (_seconds, request) =>
      refusalAnswer(
        'rate-limit',
        refuse(429, 'TOO_MANY_REQUESTS', 'temporarily_unavailable', `more than ${IDENTITY_LIMIT.requests} requests per second`),
        { 'x-request-id': requestIdOf(incomingOf(request)) },
      ),
    );
    const modifiers = modifiersOf<UserinfoShape>([...identityFaults, ...identityLatitudes], ctx.faults, { checks: RULES, settings: {} });
    const handle = userinfoHandler({ checks: modifiers.checks, table: accessTable(ctx.credentials.identity) });
    app.post(USERINFO_PATH, route(modifiers, handle));
  },

  targetSection(urls, ctx) {
    const c = ctx.credentials.identity;
    return {
      url: `${urls.http}${IDENTITY_PREFIX}`,
      rateLimit: IDENTITY_LIMIT,
      accessToken: c.accessToken,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      nonPartnerClientId: c.nonPartnerClientId,
      nonPartnerClientSecret: c.nonPartnerClientSecret,
      tokens: {
        people: peopleTokens(c),
        withoutProfile: c.tokenWithoutProfile,
        withoutPhone: c.tokenWithoutPhone,
        withoutEmail: c.tokenWithoutEmail,
        withoutConsent: c.tokenWithoutConsent,
        nonPartner: c.tokenNonPartner,
      },
    };
  },
};
