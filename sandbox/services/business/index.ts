/**
 * Business-banking (spec 4.5, 5.5, 7, 9), under the prefix /business of the sandbox listener, which is
 * the spec's {business_url}. What it registers, in order:
 *   errors.ts     the business error body for unknown paths and unexpected errors
 *   document.ts   GET /openapi/docs/openapi.yaml, the sandbox's own OpenAPI document (openapi.yaml)
 *   ndfl3/        the 3-NDFL declaration workflow and its neighbours (specific behaviour)
 *   runtime/      every other operation of the document, by a generic handler that reads it
 * Each part exports register, targetSection, faults, latitudes and credentials; specific parts
 * register before the generic one, so their routes win. The latitudes of the whole service
 * (latitudes.ts) apply in both parts; a fault or latitude that also changes the document carries that edit.
 */
import type { Latitude, Variation } from '../../faults/types.ts';
import { limitService } from '../../service-limit.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { DOCUMENT_FAULTS } from './document-faults.ts';
import { DOCUMENT_LATITUDES } from './document-latitudes.ts';
import { registerDocument, mtlsOperations, type DocumentChange, type DocumentVariation, type TargetChange } from './document.ts';
import { businessError, registerErrorAnswers, requestIdOf } from './errors.ts';
import { rateGroupsSection, SERVICE_LIMIT } from './rates.ts';
import { businessFaults } from './faults.ts';
import { SERVICE_LATITUDES } from './latitudes.ts';
import * as ndfl3 from './ndfl3/index.ts';
import * as runtime from './runtime/index.ts';

const PARTS = [ndfl3, runtime];

export const BUSINESS_PREFIX = '/business';

export const faults = [...businessFaults, ...PARTS.flatMap((p) => p.faults)];

/** Changes within what the spec allows (the mirror of the faults): the document's, the whole service's, each part's. */
export const latitudes: Latitude[] = [...DOCUMENT_LATITUDES, ...SERVICE_LATITUDES, ...PARTS.flatMap((p): Latitude[] => p.latitudes)];

type PartVariation = Variation & { document?: DocumentChange; target?: TargetChange };
const PART_VARIATIONS = PARTS.flatMap((p): PartVariation[] => [...p.faults, ...p.latitudes]);

/** What the served document shows of the faults and latitudes: their edits of it, by id. */
export const DOCUMENT_VARIATIONS: DocumentVariation[] = [
  ...DOCUMENT_FAULTS,
  ...DOCUMENT_LATITUDES,
  ...PART_VARIATIONS.filter((v) => v.document).map((v) => ({ id: v.id, ...v.document })),
];

/** Fixed development credentials (documented in README.md next to this file). */
export const credentials: Record<string, string> = Object.assign({ token: 'dev-business-token' }, ...PARTS.map((p) => p.credentials));

export const service: SandboxService = {
  area: 'business',
  prefix: BUSINESS_PREFIX,
  mtls: true,

  register(app, ctx: ServiceContext) {
    limitService(app, SERVICE_LIMIT, (seconds, request) =>
      businessError(429, 'TOO_MANY_REQUESTS', `more than ${SERVICE_LIMIT.requests} requests per second to the service`, undefined, {
        'x-request-id': requestIdOf(request),
        'x-ratelimit-reset': seconds,
      }),
    );
    registerErrorAnswers(app);
    registerDocument(app, ctx.faults, DOCUMENT_VARIATIONS);
    for (const part of PARTS) part.register(app, ctx);
  },

  targetSection(urls, ctx) {
    const section = {
      url: `${urls.http}${BUSINESS_PREFIX}`,
      token: ctx.credentials.business.token,
      // Which operations need a client certificate is configuration (spec 5.5 names only two that do
      // not): the sandbox's list is the one its own document marks.
      mtlsOperations: mtlsOperations(),
      // What the sandbox enforces (rates.ts), so that the suite paces its runs by it, not by the vendor's figures.
      rateLimit: SERVICE_LIMIT,
      rateGroups: rateGroupsSection(),
      ...(urls.https ? { mtlsUrl: `${urls.https}${BUSINESS_PREFIX}` } : {}),
      ...Object.assign({}, ...PARTS.map((p) => p.targetSection(urls, ctx))),
    };
    return PART_VARIATIONS.filter((v) => v.target && ctx.faults.has(v.id)).reduce((edited, v) => v.target!(edited), section);
  },
};
