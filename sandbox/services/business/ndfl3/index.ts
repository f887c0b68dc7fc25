/**
 * Business sandbox part "ndfl3" (spec 3.1, 4.5): 3-NDFL tax requests with a state, a version (ETag)
 * and a declaration; the ten workflow calls; request data, questionnaire structure, declaration read
 * and edit, chat; the v1 form, attachments, document data and tax-form upload; and a sandbox-only
 * provisioning call. Registered by ../index.ts before the generic handler, so these routes win.
 * Behaviour, source states and the target-file keys: README.md next to this file.
 */
import type { FastifyInstance } from 'fastify';
import { sendAnswer } from '../../../exchange.ts';
import { withHeader } from '../../../faults/modifiers.ts';
import type { ListenerUrls, ServiceContext } from '../../../types.ts';
import { requestIdOf } from '../errors.ts';
import { ratesOf } from '../rates.ts';
import { SERVICE_LATITUDES } from '../latitudes.ts';
import { NDFL3_MODIFIER_FAULTS, ndfl3Modifiers } from './fault-modifiers.ts';
import { formRoutes } from './forms.ts';
import { makeGuard } from './guard.ts';
import { NDFL3_LATITUDES } from './latitudes.ts';
import { sourceStateTable } from './machine.ts';
import { requestRoutes } from './requests.ts';
import type { Ndfl3Request } from './rules.ts';
import { Ndfl3Store } from './store.ts';
import { workflowRoutes } from './workflow.ts';

export const faults = NDFL3_MODIFIER_FAULTS;
/** This part's latitudes; the service-wide ones (../latitudes.ts) are the business index's to list, and apply here too. */
export const latitudes = NDFL3_LATITUDES;
/** The business bearer token (credentials.token of ../index.ts) serves these routes; nothing of its own. */
export const credentials: Record<string, string> = {};

/** Requests created at start and listed in the target file as `requestPool`. */
const POOL_SIZE = 10;
const stores = new WeakMap<ServiceContext, Ndfl3Store>();

function storeOf(ctx: ServiceContext): Ndfl3Store {
  let store = stores.get(ctx);
  if (!store) {
    stores.set(ctx, (store = new Ndfl3Store()));
    for (let i = 0; i < POOL_SIZE; i++) store.create();
  }
  return store;
}

export function register(app: FastifyInstance, ctx: ServiceContext): void {
  const store = storeOf(ctx);
  const modifiers = ndfl3Modifiers(ctx.faults, [...NDFL3_LATITUDES, ...SERVICE_LATITUDES]);
  const guard = makeGuard(ctx.credentials.business.token, store, modifiers.checks, ratesOf(ctx));
  for (const spec of [
    ...requestRoutes(guard, store, modifiers.checks),
    ...workflowRoutes(guard, store, modifiers.checks),
    ...formRoutes(guard),
  ]) {
    // The faults' edits around the route (fault-modifiers.ts), then the X-Request-Id every answer carries.
    app.route({
      method: spec.method,
      url: spec.path,
      handler: async (request, reply) => {
        const read: Ndfl3Request = {
          params: request.params as Ndfl3Request['params'],
          query: request.query as Ndfl3Request['query'],
          headers: request.headers,
          body: Buffer.isBuffer(request.body) ? request.body : undefined,
        };
        const incoming = modifiers.request(read);
        const answer = spec.handle(incoming);
        const edited = modifiers.answer({ ...answer, facts: { route: spec.route } }, incoming);
        return sendAnswer(reply, withHeader(edited, 'x-request-id', requestIdOf(request)));
      },
    });
  }
}

export function targetSection(_urls: ListenerUrls, ctx: ServiceContext): Record<string, unknown> {
  return {
    ndfl3: {
      provisioning: true,
      requestPool: [...storeOf(ctx).requests.keys()].slice(0, POOL_SIZE),
      stateField: 'status',
      versionFrom: 'header',
      versionField: 'version',
      sourceStates: sourceStateTable(),
    },
  };
}
