/** Checks of the surrender answer against what was sent (spec 2.5, 4.4, 7). */
import type { CapturedResponse } from '../http.ts';
import { CONTRACT_RECORD, type SurrenderRequest } from '../insurance/surrender.ts';
import { conformsTo } from './body.ts';
import { failure, type Failure } from './failure.ts';
import { jsonWhereBody } from './json-answer.ts';
import { statusIn } from './status.ts';

interface StoredRecord {
  contractId?: unknown;
  id?: unknown;
  createdAt?: unknown;
  updatedAt?: unknown;
  currency?: unknown;
  calcPeriodFrom?: unknown;
  calcPeriodTo?: unknown;
  surrenderPercent?: unknown;
  surrenderValue?: unknown;
}

const sameInstant = (a: unknown, b: string) => typeof a === 'string' && Date.parse(a) === Date.parse(b);
const key = (r: StoredRecord) => JSON.stringify([r.calcPeriodFrom, r.calcPeriodTo, r.currency, r.surrenderPercent, r.surrenderValue]);

/**
 * Spec 4.4 "Response 201: the contract record of 2.5": accepted means 201, a JSON body labelled JSON,
 * and a contract record that conforms to 2.5. Anything less is no evidence that the request was served.
 */
export function acceptedWithRecord(res: CapturedResponse, requirement: string): Failure[] {
  const status = statusIn(res, [201], requirement);
  if (status.length) return [...status, ...jsonWhereBody(res, requirement)];
  return [...jsonWhereBody(res, requirement), ...conformsTo(res, CONTRACT_RECORD, requirement)];
}

/**
 * The control of a refusal test: the request was served as the request it was (201, JSON, the contract
 * sent). Looser than acceptedWithRecord on purpose: a refusal means something next to any served
 * request, even one whose record breaks another rule of 2.5.
 */
export function servedAsSent(res: CapturedResponse, sent: Pick<SurrenderRequest, 'contractId'>): boolean {
  const body = res.json as { contractId?: unknown } | undefined;
  return res.status === 201 && jsonWhereBody(res, '').length === 0 && body?.contractId === sent.contractId;
}

/** The contract record echoes the request and holds one stored record per sent item (a fresh contract). */
export function echoesRequest(sent: SurrenderRequest, body: unknown, requirement: string): Failure[] {
  const out: Failure[] = [];
  const record = (body ?? {}) as { contractId?: unknown; productType?: unknown; updateDate?: unknown; surrender?: unknown };
  if (record.contractId !== sent.contractId) out.push(failure(requirement, `contractId ${JSON.stringify(sent.contractId)}`, JSON.stringify(record.contractId), '/contractId'));
  if (record.productType !== sent.productType) out.push(failure(requirement, `productType ${JSON.stringify(sent.productType)}`, JSON.stringify(record.productType), '/productType'));
  if (!sameInstant(record.updateDate, sent.updateDate)) out.push(failure(requirement, `updateDate the same instant as ${sent.updateDate}`, JSON.stringify(record.updateDate), '/updateDate'));
  const stored = Array.isArray(record.surrender) ? (record.surrender as StoredRecord[]) : [];
  if (stored.length !== sent.surrender.length) {
    out.push(failure(requirement, `${sent.surrender.length} stored record(s), one per sent item`, `${stored.length}`, '/surrender'));
  }
  const remaining = stored.map(key);
  sent.surrender.forEach((item, i) => {
    const at = remaining.indexOf(key(item));
    if (at >= 0) remaining.splice(at, 1);
    else out.push(failure(requirement, `a stored record equal to sent item ${i}: ${key(item)}`, 'none among the stored records', `/surrender`));
  });
  return out;
}

/** Stored records belong to the contract, have distinct integer ids, and createdAt <= updatedAt. */
export function storedRecordsConsistent(sent: SurrenderRequest, body: unknown, requirement: string): Failure[] {
  const out: Failure[] = [];
  const stored = (body as { surrender?: unknown } | undefined)?.surrender;
  if (!Array.isArray(stored) || stored.length === 0) return [failure(requirement, 'surrender: a non-empty array of stored records', JSON.stringify(stored) ?? 'nothing', '/surrender')];
  const ids = new Set<unknown>();
  (stored as StoredRecord[]).forEach((r, i) => {
    if (r.contractId !== sent.contractId) out.push(failure(requirement, `contractId ${JSON.stringify(sent.contractId)}`, JSON.stringify(r.contractId), `/surrender/${i}/contractId`));
    if (!Number.isInteger(r.id)) out.push(failure(requirement, 'an integer id', JSON.stringify(r.id), `/surrender/${i}/id`));
    else if (ids.has(r.id)) out.push(failure(requirement, 'an id distinct from the other records', `id ${r.id} repeated`, `/surrender/${i}/id`));
    ids.add(r.id);
    const created = Date.parse(String(r.createdAt));
    const updated = Date.parse(String(r.updatedAt));
    if (!(created <= updated)) out.push(failure(requirement, 'createdAt not after updatedAt', `createdAt ${r.createdAt}, updatedAt ${r.updatedAt}`, `/surrender/${i}`));
  });
  return out;
}
