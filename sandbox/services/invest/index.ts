/**
 * Investment portfolio (spec 2.3, 2.4, 4.3, 5.3, 7), under the prefix /invest:
 * POST {base_url}/rest/vendor.public.invest.api.contract.v1.OperationsService/GetPortfolio
 * Bearer token; development accounts with generated portfolios; totals in RUB, USD or EUR; the vendor's
 * error body { code, message, description }; 20 requests a second per token with x-ratelimit-* headers
 * (public facts: 200 a minute; the sandbox's own figure, as its target file declares). Order of checks: rate limit, token, content type, body, account.
 */
import { modifiersOf, route } from '../../faults/modifiers.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { ACCOUNT_IDS, developmentAccounts } from './accounts.ts';
import { investFaults } from './faults.ts';
import { investLatitudes } from './latitudes.ts';
import { portfolioHandler, RULES, SETTINGS, type PortfolioShape } from './handler.ts';

export const INVEST_PREFIX = '/invest';
export const PACKAGE = 'vendor.public.invest.api.contract.v1';
export const PORTFOLIO_PATH = `/rest/${PACKAGE}.OperationsService/GetPortfolio`;

export { investFaults as faults } from './faults.ts';
export { investLatitudes as latitudes } from './latitudes.ts';

/** Fixed development credentials (documented in sandbox/services/invest/README.md). */
export const credentials = {
  token: 'dev-invest-token-main-user',
  tokenWithoutAccess: 'dev-invest-token-other-user',
  burstToken: 'dev-invest-token-burst-user',
};

export const service: SandboxService = {
  area: 'invest',
  prefix: INVEST_PREFIX,

  register(app, ctx: ServiceContext) {
    const tokens = {
      main: ctx.credentials.invest.token,
      other: ctx.credentials.invest.tokenWithoutAccess,
      burst: ctx.credentials.invest.burstToken,
    };
    const modifiers = modifiersOf<PortfolioShape>([...investFaults, ...investLatitudes], ctx.faults, { checks: RULES, settings: SETTINGS });
    const handle = portfolioHandler({
      checks: modifiers.checks,
      settings: modifiers.settings,
      tokens: Object.values(tokens),
      accounts: developmentAccounts(tokens),
    });
    app.post(PORTFOLIO_PATH, route(modifiers, handle));
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${INVEST_PREFIX}`,
      // What handler.ts enforces, per token: the suite paces each token by it and bursts at twice it.
      rateLimit: { ...SETTINGS, per: 'token' },
      package: PACKAGE,
      token: ctx.credentials.invest.token,
      accountId: ACCOUNT_IDS.main,
      accountIds: [ACCOUNT_IDS.income, ACCOUNT_IDS.empty],
      otherAccountId: ACCOUNT_IDS.otherUser,
      tokenWithoutAccess: ctx.credentials.invest.tokenWithoutAccess,
      burstToken: ctx.credentials.invest.burstToken,
      burstAccountId: ACCOUNT_IDS.burst,
      totalIsSumOfClasses: true,
    };
  },
};
