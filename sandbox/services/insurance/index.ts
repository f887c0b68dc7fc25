/**
 * Insurance surrender (spec 2.5, 4.4, 5.4, 7, 8):
 * POST {secured_url}/invest/axiom/providers-api/v1/contracts/surrender/create/
 * Bearer token with the partner scopes; 20 requests per second per token (per address without one),
 * declared so in its target file, with a pool of more tokens of the partner; JSON body validated;
 * 201 with the contract record and its stored surrender records, kept in memory while it runs.
 */
import { modifiersOf, route } from '../../faults/modifiers.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { DATA_TRANSFER, INTERACTION, PARTNER_SCOPES } from './access.ts';
import { insuranceFaults } from './faults.ts';
import { insuranceLatitudes } from './latitudes.ts';
import { RULES, SETTINGS, surrenderHandler, type SurrenderShape } from './handler.ts';

export const INSURANCE_PREFIX = '/insurance';
export const SURRENDER_PATH = '/invest/axiom/providers-api/v1/contracts/surrender/create/';

export { insuranceFaults as faults } from './faults.ts';
export { insuranceLatitudes as latitudes } from './latitudes.ts';

/** Fixed development credentials (documented in sandbox/README.md). */
export const credentials = {
  token: 'dev-insurance-partner-token',
  tokenWithoutScope: 'dev-insurance-token-without-partner-scope',
  tokenWithoutInteractionScope: 'dev-insurance-token-data-transfer-only',
  tokenWithoutDataTransferScope: 'dev-insurance-token-interaction-only',
  /** The pool's tokens are this prefix plus -01 to -32 (one key, so that an override renames them all). */
  tokenPoolPrefix: 'dev-insurance-partner-pool-token',
  providerName: 'Sandbox Insurance Partner',
};

const POOL_SIZE = 32;

/** More tokens of the partner, with the partner scopes as `token` has: each has a limit of its own. */
export function poolTokens(c: Record<string, string>): string[] {
  return Array.from({ length: POOL_SIZE }, (_, i) => `${c.tokenPoolPrefix}-${String(i + 1).padStart(2, '0')}`);
}

export const service: SandboxService = {
  area: 'insurance',
  prefix: INSURANCE_PREFIX,

  register(app, ctx: ServiceContext) {
    const { credentials } = ctx;
    const modifiers = modifiersOf<SurrenderShape>([...insuranceFaults, ...insuranceLatitudes], ctx.faults, {
      checks: RULES,
      settings: SETTINGS,
    });
    const tokens = new Map<string, readonly string[]>([
      [credentials.insurance.token, PARTNER_SCOPES],
      ...poolTokens(credentials.insurance).map((token): [string, readonly string[]] => [token, PARTNER_SCOPES]),
      [credentials.insurance.tokenWithoutScope, ['profile']],
      [credentials.insurance.tokenWithoutInteractionScope, ['profile', DATA_TRANSFER]],
      [credentials.insurance.tokenWithoutDataTransferScope, ['profile', INTERACTION]],
    ]);
    const handle = surrenderHandler({
      checks: modifiers.checks,
      settings: modifiers.settings,
      tokens,
      providerName: credentials.insurance.providerName,
    });
    app.post(SURRENDER_PATH, route(modifiers, handle));
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${INSURANCE_PREFIX}`,
      // Spec 8 says "20 requests per second" and not what is counted; the sandbox counts each token (and
      // each address without one) apart, and says so: the suite then spreads its ordinary requests over
      // the pool, each token at its own pace, while the rate-limit tests still meet 20/s with one token.
      rateLimit: { requests: SETTINGS.perSecond, perSeconds: 1, per: 'token' },
      token: ctx.credentials.insurance.token,
      tokenPool: poolTokens(ctx.credentials.insurance),
      tokenWithoutScope: ctx.credentials.insurance.tokenWithoutScope,
      tokenWithoutInteractionScope: ctx.credentials.insurance.tokenWithoutInteractionScope,
      tokenWithoutDataTransferScope: ctx.credentials.insurance.tokenWithoutDataTransferScope,
    };
  },
};
