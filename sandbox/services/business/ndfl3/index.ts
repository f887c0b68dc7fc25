/**
 * Business sandbox part "ndfl3" (spec 3.1, 4.5): 3-NDFL tax requests with a state, a version (ETag)
 * and a declaration; the ten workflow calls; request data, questionnaire structure, declaration read
 * and edit, chat; the v1 form, attachments, document data and tax-form upload; and a sandbox-only
 * provisioning call. Registered by ../index.ts before the generic handler, so these routes win.
 * Behaviour, source states and the target-file keys: README.md next to this file.
 */
import type { FastifyInstance } from 'fastify';
import type { ListenerUrls, ServiceContext } from '../../../types.ts';
import { ndfl3Faults } from './faults.ts';
import { registerForms } from './forms.ts';
import { makeGuard } from './guard.ts';
import { sourceStateTable } from './machine.ts';
import { registerRequests } from './requests.ts';
import { Ndfl3Store } from './store.ts';
import { registerWorkflow } from './workflow.ts';

export const faults = ndfl3Faults;
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
  const guard = makeGuard(ctx, store);
  registerRequests(app, guard, store, ctx.faults);
  registerWorkflow(app, guard, store, ctx.faults);
  registerForms(app, guard, ctx.faults);
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
