/**
 * Business sandbox part "runtime": every operation of the sandbox's own document answers, through one
 * catch-all route and handler.ts. Registered after the specific parts (ndfl3/), whose routes win:
 * fastify prefers a static or parametric route to a wildcard, so only what no other part registered
 * reaches the catch-all. The memory of business data is shared by both listeners (plain and mTLS).
 */
import type { FastifyInstance } from 'fastify';
import { sendAnswer } from '../../../exchange.ts';
import { withHeader } from '../../../faults/modifiers.ts';
import type { Fault } from '../../../faults/types.ts';
import type { ListenerUrls, ServiceContext } from '../../../types.ts';
import { ratesOf } from '../rates.ts';
import { ALL_SCOPES } from './access.ts';
import { INACTIVE_TAXPAYER_INN, VIRTUAL_CARD_UCID, seedWorld } from './behaviours.ts';
import { fixturesSection } from './fixtures.ts';
import { FRESH_PAYER_PREFIX, MONTH_USED_AMOUNT, MONTH_USED_PREFIX, SBP_FREE_LIMIT } from './payments.ts';
import { requestIdOf } from '../errors.ts';
import { SERVICE_LATITUDES } from '../latitudes.ts';
import { RUNTIME_MODIFIER_FAULTS, runtimeModifiers } from './fault-modifiers.ts';
import { runtimeHandler, runtimeRequestOf, type RuntimeState } from './handler.ts';
import { RUNTIME_LATITUDES } from './latitudes.ts';
import { checkTable } from './resources.ts';
import { World } from './world.ts';

export const faults: Fault[] = RUNTIME_MODIFIER_FAULTS;
/** This part's latitudes; the service-wide ones (../latitudes.ts) are the business index's to list, and apply here too. */
export const latitudes = RUNTIME_LATITUDES;

/** Fixed development credentials: a token with no business scope at all (the full token is the service's). */
export const credentials: Record<string, string> = { tokenWithoutScope: 'dev-business-token-without-scope' };

// One state per sandbox (a process may run several, as the fault run does), found by its context.
const states = new WeakMap<ServiceContext, RuntimeState>();

function stateOf(ctx: ServiceContext): RuntimeState {
  let state = states.get(ctx);
  if (!state) {
    checkTable();
    const world = new World();
    seedWorld(world);
    const business = ctx.credentials.business;
    const tokens = new Map<string, string[]>([
      [business.token, ALL_SCOPES],
      [business.tokenWithoutScope, ['openid']],
    ]);
    states.set(ctx, (state = { world, tokens, rates: ratesOf(ctx), replays: new Map() }));
  }
  return state;
}

export function register(app: FastifyInstance, ctx: ServiceContext): void {
  const modifiers = runtimeModifiers(ctx.faults, [...RUNTIME_LATITUDES, ...SERVICE_LATITUDES]);
  const handle = runtimeHandler(stateOf(ctx), modifiers.checks, modifiers.settings);
  // The faults' edits around the handler (fault-modifiers.ts), then the X-Request-Id every answer carries.
  app.all('/*', async (request, reply) => {
    const incoming = modifiers.request(runtimeRequestOf(request));
    return sendAnswer(reply, withHeader(modifiers.answer(handle(incoming), incoming), 'x-request-id', requestIdOf(request)));
  });
}

/**
 * The operation groups (catalog area names) whose scope the token without a scope is refused for with
 * 403: every group this part serves. The 3-NDFL part does not know that token at all (401).
 */
const SCOPED_AREAS = [
  'checkout',
  'nominal-accounts',
  'direct-debits',
  'accounts',
  'payments',
  'self-employed',
  'salary',
  'invoices',
  'cards',
  'individual',
  'company',
  'loyalty',
  'special-accounts',
  'trade-acquiring',
  'e-invoice',
  'safe-deal',
  'delivery',
  'signature',
  'offline-credit',
];

export function targetSection(_urls: ListenerUrls, ctx: ServiceContext): Record<string, unknown> {
  return {
    tokenWithoutScope: ctx.credentials.business.tokenWithoutScope,
    scopeRefusalAreas: SCOPED_AREAS,
    // Fixtures a staging would name: a virtual card, which a list of cards need not show first (its requisites exist only for a virtual one).
    identifiers: { ucid: VIRTUAL_CARD_UCID },
    // Per operation, where a name means another thing (a deponent's beneficiaryId), and the disposable pools (fixtures.ts).
    fixtures: fixturesSection(),
    // The sandbox's fixtures for the business-rule suites (payments.ts, behaviours.ts).
    rules: {
      payerAccountPrefix: FRESH_PAYER_PREFIX,
      monthNearLimit: { payerAccountPrefix: MONTH_USED_PREFIX, paidThisMonth: MONTH_USED_AMOUNT },
      sbp: { freeLimit: SBP_FREE_LIMIT, commissionField: 'commission' },
      selfEmployed: { inn: '500100732259', inactiveInn: INACTIVE_TAXPAYER_INN },
      checkout: { itemsAmountCondition: 'without-amount' },
    },
    ...(ctx.tls ? { mtls: { cert: ctx.tls.clientCert, key: ctx.tls.clientKey, ca: ctx.tls.ca } } : {}),
  };
}
