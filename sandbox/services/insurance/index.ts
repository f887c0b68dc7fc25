/**
 * Insurance surrender (spec 2.5, 4.4, 5.4, 7, 8):
 * POST {secured_url}/invest/axiom/providers-api/v1/contracts/surrender/create/
 * Bearer token with the partner scopes; 20 requests per second per client; JSON body validated;
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
  providerName: 'Sandbox Insurance Partner',
};

export const service: SandboxService = {
  area: 'insurance',
  prefix: INSURANCE_PREFIX,

  register(app, ctx: ServiceContext) {
    const { credentials } = ctx;
    const modifiers = modifiersOf<SurrenderShape>([...insuranceFaults, ...insuranceLatitudes], ctx.faults, { rules: RULES, settings: SETTINGS });
    const tokens = new Map<string, readonly string[]>([
      [credentials.insurance.token, PARTNER_SCOPES],
      [credentials.insurance.tokenWithoutScope, ['profile']],
      [credentials.insurance.tokenWithoutInteractionScope, ['profile', DATA_TRANSFER]],
      [credentials.insurance.tokenWithoutDataTransferScope, ['profile', INTERACTION]],
    ]);
    const handle = surrenderHandler({ rules: modifiers.rules, settings: modifiers.settings, tokens, providerName: credentials.insurance.providerName });
    app.post(SURRENDER_PATH, route(modifiers, handle));
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${INSURANCE_PREFIX}`,
      token: ctx.credentials.insurance.token,
      tokenWithoutScope: ctx.credentials.insurance.tokenWithoutScope,
      tokenWithoutInteractionScope: ctx.credentials.insurance.tokenWithoutInteractionScope,
      tokenWithoutDataTransferScope: ctx.credentials.insurance.tokenWithoutDataTransferScope,
    };
  },
};

