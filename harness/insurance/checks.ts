/**
 * Checks of the surrender answer against what was sent (spec 2.5, 4.4, 7). 2.5 gives the records'
 * fields by name and type only, so no field is required but the one 4.4 names ("with the stored
 * surrender records"), and date-times are ISO 8601 in any of its forms (harness/iso8601.ts). A check of
 * "every" record or field judges what is there and says how much it judged (harness/checks/judged.ts).
 */
import type { CapturedResponse } from '../http.ts';
import { orderOf, sameDay, sameMoment } from '../iso8601.ts';
import { isJsonObject } from '../json.ts';
import { CONTRACT_RECORD, type SurrenderItem, type SurrenderRequest } from './surrender.ts';
import { conformsTo, jsonBody } from '../checks/body.ts';
import { failure, type Failure } from '../checks/failure.ts';
import { judged, type Judged } from '../checks/judged.ts';
import { jsonWhereBody } from '../checks/json-answer.ts';

type StoredRecord = Partial<Record<keyof SurrenderItem | 'contractId' | 'id' | 'createdAt' | 'updatedAt' | 'providerName', unknown>>;

/** INS-RSP-001's own part of a 201: a body that is JSON at all (an empty or unparsable body is no contract record). */
export const recordBody = (res: CapturedResponse, requirement: string): Failure[] => jsonBody(res, requirement);

/** INS-RSP-001: the record has the types of 2.5 and carries its stored records. */
export const recordConforms = (res: CapturedResponse, requirement: string): Failure[] => conformsTo(res, CONTRACT_RECORD, requirement);

const storedOf = (body: unknown): unknown[] | undefined =>
  isJsonObject(body) && Array.isArray(body.surrender) ? body.surrender : undefined;

/**
 * Why a 201 shows nothing stored, or undefined when it shows the stored records: its body is not a JSON
 * answer (INS-CTY-001 judges the label), not a JSON object, or holds no stored surrender records
 * (INS-RSP-001 judges the record). Only such evidence makes an acceptance count.
 */
export function whyNotStored(res: CapturedResponse): string | undefined {
  if (res.rawBody === '') return 'a 201 with an empty body (INS-RSP-001 judges the record)';
  const label = jsonWhereBody(res, '')[0];
  if (label) return `${label.received}: no JSON answer (INS-CTY-001 judges it)`;
  if (!isJsonObject(res.json)) return `a 201 whose body is no JSON object: ${res.rawBody.slice(0, 120)} (INS-RSP-001 judges the record)`;
  const stored = storedOf(res.json);
  if (!stored?.length) return `a 201 without its stored surrender records: ${res.rawBody.slice(0, 120)} (INS-RSP-001 judges the record)`;
  return undefined;
}

/**
 * The control of a refusal test: the request was served as the request it was (201, its stored records,
 * the contract sent where the record names one). Looser than the record's own checks on purpose: a
 * refusal means something next to any served request, even one whose record breaks another rule of 2.5.
 */
export function servedAsSent(res: CapturedResponse, sent: Pick<SurrenderRequest, 'contractId'>): boolean {
  const contractId = isJsonObject(res.json) ? res.json.contractId : undefined;
  return res.status === 201 && whyNotStored(res) === undefined && (contractId === undefined || contractId === sent.contractId);
}

/** Each field of an item as a stored record carries it: the JSON type 2.5 gives it, and how it compares with what was sent. */
const ITEM_FIELDS: Array<[keyof SurrenderItem, 'string' | 'number', (got: unknown, sent: unknown) => boolean]> = [
  ['calcPeriodFrom', 'string', sameDay],
  ['calcPeriodTo', 'string', sameDay],
  ['currency', 'string', (got, sent) => got === sent],
  ['surrenderPercent', 'number', (got, sent) => got === sent],
  ['surrenderValue', 'number', (got, sent) => got === sent],
];

/**
 * How many of the item's fields the record carries, or -1 when one it carries differs from the item's.
 * A field of another JSON type is passed over: its type is INS-RSP-001's.
 */
function matchOf(record: StoredRecord, item: SurrenderItem): number {
  let count = 0;
  for (const [key, type, same] of ITEM_FIELDS) {
    if (typeof record[key] !== type) continue;
    if (!same(record[key], item[key])) return -1;
    count++;
  }
  return count;
}

/**
 * INS-RSP-002: the contract record echoes the request (contractId, productType, updateDate as the same
 * moment, where it carries them) and holds one stored record per sent item, each with the item's
 * period, currency, percent and value (where it carries them; dates compared as days, numbers as
 * numbers). Judged: the fields compared; a record that carries none of them shows nothing.
 */
export function echoesRequest(sent: SurrenderRequest, body: unknown, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  const record = isJsonObject(body) ? body : {};
  const echo = (key: 'contractId' | 'productType' | 'updateDate', same: (got: unknown, want: string) => boolean, expected: string) => {
    if (typeof record[key] !== 'string') return; // absent, or of another type (INS-RSP-001's)
    count++;
    if (!same(record[key], sent[key])) out.push(failure(requirement, expected, JSON.stringify(record[key]), `/${key}`));
  };
  echo('contractId', (got, want) => got === want, `contractId ${JSON.stringify(sent.contractId)}`);
  echo('productType', (got, want) => got === want, `productType ${JSON.stringify(sent.productType)}`);
  echo('updateDate', sameMoment, `updateDate the moment ${sent.updateDate} (at the precision the answer writes)`);
  const stored = (storedOf(body) ?? []).filter(isJsonObject) as StoredRecord[];
  if (stored.length !== sent.surrender.length) {
    out.push(failure(requirement, `${sent.surrender.length} stored record(s), one per sent item`, `${stored.length}`, '/surrender'));
  }
  const remaining = [...stored];
  sent.surrender.forEach((item, i) => {
    // The record that carries most of the item's fields, all equal: records may come in any order.
    let [bestAt, bestCount] = [-1, -1];
    remaining.forEach((r, at) => {
      const m = matchOf(r, item);
      if (m > bestCount) [bestAt, bestCount] = [at, m];
    });
    if (bestCount < 0) {
      out.push(
        failure(
          requirement,
          `a stored record with sent item ${i}'s period, currency, percent and value: ${JSON.stringify(item)}`,
          'none among the stored records',
          '/surrender',
        ),
      );
      return;
    }
    count += bestCount;
    remaining.splice(bestAt, 1);
  });
  return judged(out, count);
}

/**
 * Policy (INS-RSP-003): stored records carry the contract's contractId, distinct integer ids, and
 * createdAt not after updatedAt; each judged where the record carries the fields.
 */
export function storedRecordsConsistent(sent: SurrenderRequest, body: unknown, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  const ids = new Set<unknown>();
  ((storedOf(body) ?? []).filter(isJsonObject) as StoredRecord[]).forEach((r, i) => {
    if (r.contractId !== undefined) {
      count++;
      if (r.contractId !== sent.contractId)
        out.push(
          failure(requirement, `contractId ${JSON.stringify(sent.contractId)}`, JSON.stringify(r.contractId), `/surrender/${i}/contractId`),
        );
    }
    if (r.id !== undefined) {
      count++;
      if (!Number.isInteger(r.id)) out.push(failure(requirement, 'an integer id', JSON.stringify(r.id), `/surrender/${i}/id`));
      else if (ids.has(r.id))
        out.push(failure(requirement, 'an id distinct from the other records', `id ${r.id} repeated`, `/surrender/${i}/id`));
      ids.add(r.id);
    }
    if (r.createdAt !== undefined && r.updatedAt !== undefined) {
      count++;
      const order = orderOf(r.createdAt, r.updatedAt);
      if (!order || order[0] > order[1])
        out.push(
          failure(requirement, 'createdAt not after updatedAt', `createdAt ${r.createdAt}, updatedAt ${r.updatedAt}`, `/surrender/${i}`),
        );
    }
  });
  return judged(out, count);
}
