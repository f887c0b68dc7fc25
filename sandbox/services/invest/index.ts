/**
 * Investment portfolio (spec 2.3, 2.4, 4.3, 5.3, 7), under the prefix /invest:
 * POST {base_url}/rest/vendor.public.invest.api.contract.v1.OperationsService/GetPortfolio
 * Bearer token; development accounts with generated portfolios; totals in RUB, USD or EUR; the vendor's
 * error body { code, message, description }; 200 requests per minute per token with x-ratelimit-*
 * headers (public facts). Order of checks: rate limit, token, content type, body, account.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SlidingWindowLimiter } from '../../rate-limiter.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { ACCOUNT_IDS, developmentAccounts } from './accounts.ts';
import { portfolioOf } from './portfolio.ts';
import { isRejection, readQuery, type Rejection } from './request.ts';

export const INVEST_PREFIX = '/invest';
export const PACKAGE = 'vendor.public.invest.api.contract.v1';
export const PORTFOLIO_PATH = `/rest/${PACKAGE}.OperationsService/GetPortfolio`;
const LIMIT = 200;
const WINDOW_MS = 60_000;

export { investFaults as faults } from './faults.ts';

/** Fixed development credentials (documented in sandbox/services/invest/README.md). */
export const credentials = {
  token: 'dev-invest-token-main-user',
  tokenWithoutAccess: 'dev-invest-token-other-user',
  burstToken: 'dev-invest-token-burst-user',
};

const UNAUTHENTICATED: Rejection = { status: 401, code: 16, message: 'Authentication token is missing or invalid', description: 40003 };
const FORBIDDEN: Rejection = { status: 403, code: 7, message: 'Insufficient privileges', description: 40002 };
const NOT_FOUND: Rejection = { status: 404, code: 5, message: 'Account not found', description: 50004 };

export const service: SandboxService = {
  area: 'invest',
  prefix: INVEST_PREFIX,

  register(app, ctx: ServiceContext) {
    const { faults } = ctx;
    const tokens = { main: ctx.credentials.invest.token, other: ctx.credentials.invest.tokenWithoutAccess, burst: ctx.credentials.invest.burstToken };
    const accounts = developmentAccounts(tokens);
    const limiter = new SlidingWindowLimiter(LIMIT, WINDOW_MS);

    const fail = (reply: FastifyReply, r: Rejection) => {
      const body = faults.has('inv-error-without-description') ? { code: r.code, message: r.message } : { code: r.code, message: r.message, description: r.description };
      const type = faults.has('inv-error-text-plain') ? 'text/plain; charset=utf-8' : 'application/json';
      return reply.code(r.status).type(type).send(JSON.stringify(body));
    };

    app.post(PORTFOLIO_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('x-tracking-id', randomBytes(16).toString('hex'));
      const token = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      const verdict = limiter.hit(token ?? `ip:${request.ip}`);
      if (!faults.has('inv-no-ratelimit-headers')) {
        const reset = String(Math.max(1, Math.ceil(verdict.resetMs / 1000)));
        reply.header('x-ratelimit-limit', String(LIMIT)).header('x-ratelimit-remaining', String(verdict.remaining)).header('x-ratelimit-reset', reset);
      }
      if (!verdict.allowed && !faults.has('inv-no-rate-limit')) return fail(reply, { status: 429, code: 8, message: 'Request limit exceeded', description: 80002 });

      const owner = token && Object.values(tokens).includes(token) ? token : undefined;
      const anonymousServed = faults.has('inv-no-auth') && request.headers.authorization === undefined;
      if (!owner && !anonymousServed) {
        return fail(reply, token && faults.has('inv-bad-token-403') ? FORBIDDEN : UNAUTHENTICATED);
      }

      const contentType = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      const query = readQuery(contentType, raw, faults);
      if (isRejection(query)) return fail(reply, query);

      let account = accounts.get(query.accountId);
      if (!account) {
        if (!faults.has('inv-unknown-account-200')) return fail(reply, faults.has('inv-unknown-account-403') ? FORBIDDEN : NOT_FOUND);
        account = { id: query.accountId, owner: owner ?? '', holdings: [], virtual: [] };
      }
      const readable = !owner || account.owner === owner || faults.has('inv-foreign-account-readable') || !accounts.has(account.id);
      if (!readable) return fail(reply, FORBIDDEN);
      if (faults.has('inv-account-ignored')) account = [...accounts.values()].find((a) => a.owner === account!.owner) ?? account;
      if (account.holdings.length === 0 && accounts.has(account.id) && faults.has('inv-empty-portfolio-204')) return reply.code(204).send();
      return reply.code(200).type('application/json').send(portfolioOf(account, query.currency, faults));
    });
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${INVEST_PREFIX}`,
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
