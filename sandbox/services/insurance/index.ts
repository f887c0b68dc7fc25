/**
 * Insurance surrender (spec 2.5, 4.4, 5.4, 7, 8):
 * POST {secured_url}/invest/axiom/providers-api/v1/contracts/surrender/create/
 * Bearer token with the partner scopes; 20 requests per second per client; JSON body validated;
 * 201 with the contract record and its stored surrender records, kept in memory while it runs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SlidingWindowLimiter } from '../../rate-limiter.ts';
import type { FaultSet } from '../../faults/types.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { unprocessable, validateSurrenderRequest } from './validate.ts';

export const INSURANCE_PREFIX = '/insurance';
export const SURRENDER_PATH = '/invest/axiom/providers-api/v1/contracts/surrender/create/';
/** Spec 5.4 names the two scopes only by purpose: interaction with partners, transfer of partner data. */
const INTERACTION = 'partners.interaction';
const DATA_TRANSFER = 'partners.data-transfer';
const PARTNER_SCOPES = [INTERACTION, DATA_TRANSFER];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface StoredRecord {
  contractId: string;
  id: number | string;
  createdAt: string;
  updatedAt: string;
  providerName: string;
  currency: string;
  calcPeriodFrom: string;
  calcPeriodTo: string;
  surrenderPercent: number;
  surrenderValue: number;
}

interface ContractRecord {
  createdAt: string;
  updatedAt: string;
  updateDate: string;
  providerName: string;
  productType: string;
  contractId: string;
  surrender: StoredRecord[];
}

/**
 * The sandbox's error body for this service (the spec does not show one): { code, message, details },
 * JSON like every body (spec 4), unless a fault labels the refusals of bad requests text/plain.
 */
function errorSender(faults: FaultSet) {
  return (reply: FastifyReply, status: number, code: string, message: string, details?: unknown) => {
    const type = (status === 400 || status === 422) && faults.has('ins-error-text-plain') ? 'text/plain; charset=utf-8' : 'application/json';
    return reply.code(status).type(type).send(JSON.stringify({ code, message, ...(details ? { details } : {}) }));
  };
}

export { insuranceFaults as faults } from './faults.ts';

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
    const { faults, credentials } = ctx;
    const sendError = errorSender(faults);
    const limit = faults.has('ins-rate-limit-too-strict') ? 5 : 20;
    const limiter = new SlidingWindowLimiter(limit, 1000);
    const tokens = new Map<string, string[]>([
      [credentials.insurance.token, PARTNER_SCOPES],
      [credentials.insurance.tokenWithoutScope, ['profile']],
      [credentials.insurance.tokenWithoutInteractionScope, ['profile', DATA_TRANSFER]],
      [credentials.insurance.tokenWithoutDataTransferScope, ['profile', INTERACTION]],
    ]);
    // A scope the sandbox forgets to check under a fault: the token lacking only it is served.
    const unchecked = new Set([
      ...(faults.has('ins-interaction-scope-not-checked') ? [INTERACTION] : []),
      ...(faults.has('ins-data-transfer-scope-not-checked') ? [DATA_TRANSFER] : []),
    ]);
    const contracts = new Map<string, ContractRecord>();
    const replays = new Map<string, { status: number; body: unknown }>();
    let nextId = 1;

    app.post(SURRENDER_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const requestId = request.headers['x-request-id'];
      if (typeof requestId === 'string') reply.header('x-request-id', requestId);
      const auth = request.headers.authorization ?? '';
      const token = /^bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();

      if (!faults.has('ins-no-rate-limit')) {
        const verdict = limiter.hit(token ?? request.ip);
        reply.header('x-ratelimit-limit', String(limit)).header('x-ratelimit-remaining', String(verdict.remaining));
        if (!verdict.allowed) {
          const seconds = Math.max(1, Math.ceil(verdict.resetMs / 1000));
          return sendError(reply.header('retry-after', String(seconds)).header('x-ratelimit-reset', String(seconds)), 429, 'TOO_MANY_REQUESTS', `more than ${limit} requests per second`);
        }
      }
      if (!faults.has('ins-no-auth') || token) {
        if (!token) return sendError(reply, 401, 'UNAUTHENTICATED', 'a bearer token is required');
        const scopes = tokens.get(token);
        if (!scopes) return sendError(reply, faults.has('ins-bad-token-403') ? 403 : 401, 'UNAUTHENTICATED', 'the token is not valid');
        if (!PARTNER_SCOPES.every((s) => scopes.includes(s) || unchecked.has(s)) && !faults.has('ins-scope-not-checked')) {
          return sendError(reply, 403, 'FORBIDDEN', `the token lacks the scopes ${PARTNER_SCOPES.join(', ')}`);
        }
      }
      // X-Request-Id traces; it does not affect execution (4.4), unless a fault makes it.
      if (requestId === undefined && faults.has('ins-request-id-required')) return sendError(reply, 400, 'BAD_REQUEST', 'the X-Request-Id header is required');
      if (typeof requestId === 'string' && !UUID.test(requestId) && faults.has('ins-request-id-uuid-enforced')) {
        return sendError(reply, 400, 'BAD_REQUEST', 'X-Request-Id must be a UUID');
      }
      if (typeof requestId === 'string' && faults.has('ins-request-id-replays') && replays.has(requestId)) {
        const earlier = replays.get(requestId)!;
        return reply.code(earlier.status).send(earlier.body);
      }

      const contentType = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      if (contentType !== 'application/json') {
        if (faults.has('ins-text-plain-500')) return sendError(reply, 500, 'INTERNAL', 'unexpected body');
        return sendError(reply, 400, 'BAD_REQUEST', 'the body must be application/json');
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch (error) {
        if (faults.has('ins-malformed-json-500')) return sendError(reply, 500, 'INTERNAL', 'internal error');
        return sendError(reply, 400, 'BAD_REQUEST', `the body is not valid JSON: ${(error as Error).message}`);
      }
      if (faults.has('ins-huge-number-500') && /:\s*-?(?:\d{300,}|\d+(?:\.\d+)?[eE]\+?\d{3,})/.test(raw)) return sendError(reply, 500, 'INTERNAL', 'number out of range');

      const found = validateSurrenderRequest(body, faults);
      if (found) return sendError(reply, 400, 'VALIDATION_ERROR', `${found.field} ${found.message}`, [found]);
      const req = body as { contractId: unknown; productType: string; surrender: Array<Record<string, unknown>>; updateDate?: string };
      const semantic = unprocessable(req, faults);
      if (semantic) return sendError(reply, 422, 'UNPROCESSABLE', `${semantic.field} ${semantic.message}`, [semantic]);

      const now = new Date();
      const stamp = now.toISOString();
      const contractId = String(req.contractId);
      const existing = contracts.get(contractId);
      const items = faults.has('ins-only-first-item-stored') ? req.surrender.slice(0, 1) : req.surrender;
      const sharedId = nextId;
      const surrender: StoredRecord[] = items.map((item) => {
        const id = faults.has('ins-record-ids-repeat') ? sharedId : nextId++;
        const record: StoredRecord = {
          contractId,
          id: faults.has('ins-record-id-string') ? String(id) : id,
          createdAt: faults.has('ins-created-after-updated') ? new Date(now.getTime() + 60_000).toISOString() : stamp,
          updatedAt: stamp,
          providerName: credentials.insurance.providerName,
          currency: item.currency as string,
          calcPeriodFrom: item.calcPeriodFrom as string,
          calcPeriodTo: item.calcPeriodTo as string,
          surrenderPercent: item.surrenderPercent as number,
          surrenderValue: faults.has('ins-value-rounded') ? Math.round(item.surrenderValue as number) : (item.surrenderValue as number),
        };
        if (faults.has('ins-record-without-provider-name')) delete (record as Partial<StoredRecord>).providerName;
        return record;
      });
      if (faults.has('ins-record-ids-repeat')) nextId++;
      // Setting surrender amounts replaces the contract's earlier set; the contract keeps its createdAt.
      const contract: ContractRecord = {
        createdAt: existing?.createdAt ?? stamp,
        updatedAt: stamp,
        updateDate: req.updateDate ?? stamp,
        providerName: credentials.insurance.providerName,
        productType: req.productType,
        contractId,
        surrender,
      };
      contracts.set(contractId, contract);
      const status = faults.has('ins-status-200') ? 200 : 201;
      if (typeof requestId === 'string') replays.set(requestId, { status, body: contract });
      return reply.code(status).type('application/json').send(contract);
    });
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

