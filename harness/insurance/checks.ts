/**
 * Checks of the surrender answer against what was sent (spec 2.5, 4.4, 7). 2.5 gives the records'
 * fields by name and type only: the types are INS-RSP-001's, with no field required but the one 4.4
 * names ("with the stored surrender records"); that each sent item comes back in a stored record of
 * its own is every acceptance's (the system "stores them and returns the stored records"); that every
 * field 2.5 lists is there is INS-RSP-004's policy. Date-times are ISO 8601 in any of its forms
 * (harness/text/iso8601.ts). A check of "every" record or field says how much it judged (harness/checks/judged.ts).
 */
import type { CapturedResponse } from '../request/http.ts';
import { orderOf, parseIsoDate, sameDay, sameMoment } from '../text/iso8601.ts';
import { parseJsonKeepingIntegers } from '../text/json-integers.ts';
import { isJsonObject } from '../text/json.ts';
import { CONTRACT_RECORD, CONTRACT_RECORD_LISTED, type SurrenderItem, type SurrenderRequest } from './surrender.ts';
import { conformsTo, fieldsPresent, jsonBody } from '../checks/body.ts';
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
 * How a stored record stands to a sent item: how many of the item's fields it carries equal, and what
 * it shows otherwise (a field absent, or another value). A field of another JSON type is passed over:
 * its type is INS-RSP-001's.
 */
function compared(record: StoredRecord, item: SurrenderItem): { equal: number; otherwise: string[] } {
  const otherwise: string[] = [];
  let equal = 0;
  for (const [key, type, same] of ITEM_FIELDS) {
    if (record[key] === undefined) otherwise.push(`no ${key}`);
    else if (typeof record[key] !== type) continue;
    else if (same(record[key], item[key])) equal++;
    else otherwise.push(`${key} ${JSON.stringify(record[key])}`);
  }
  return { equal, otherwise };
}

/** The item's fields as one text, dates as days, where every field has its JSON type (else undefined). */
function keyOf(fields: StoredRecord | SurrenderItem): string | undefined {
  const parts: unknown[] = [];
  for (const [key, type] of ITEM_FIELDS) {
    const value = fields[key];
    if (typeof value !== type) return undefined;
    const day = type === 'string' && key !== 'currency' ? parseIsoDate(value) : undefined;
    parts.push(day ? [day.year, day.month, day.day] : value);
  }
  return JSON.stringify(parts);
}

/**
 * The sent items that have no stored record of their own (one that carries each of the item's fields,
 * equal to it), how many fields the matched records showed equal, and the closest record left for an
 * item (for the failure's words). Records may come in any order, and besides records stored before (a
 * contract may keep earlier sets).
 */
function unmatchedItems(sent: readonly SurrenderItem[], records: readonly StoredRecord[]) {
  const remaining = new Set(records.keys());
  const byKey = new Map<string, number[]>();
  const keyless: number[] = [];
  records.forEach((r, at) => {
    const key = keyOf(r);
    if (key === undefined) keyless.push(at);
    else byKey.set(key, [...(byKey.get(key) ?? []), at]);
  });
  let equal = 0;
  const unmatched: number[] = [];
  sent.forEach((item, i) => {
    const at = byKey.get(keyOf(item) ?? '')?.find((r) => remaining.has(r));
    if (at !== undefined) {
      remaining.delete(at);
      equal += ITEM_FIELDS.length;
      return;
    }
    // A record with a field of another type (INS-RSP-001's) still stands for the item where the rest is equal;
    // a record whose fields all have their types and another key cannot.
    const stand = keyless.find((r) => remaining.has(r) && compared(records[r], item).otherwise.length === 0);
    if (stand === undefined) return void unmatched.push(i);
    remaining.delete(stand);
    equal += compared(records[stand], item).equal;
  });
  const closest = (i: number) => {
    let best: { at: number; equal: number; otherwise: string[] } | undefined;
    for (const at of remaining) {
      const c = compared(records[at], sent[i]);
      if (!best || c.otherwise.length < best.otherwise.length || (c.otherwise.length === best.otherwise.length && c.equal > best.equal))
        best = { at, ...c };
    }
    return best && `${JSON.stringify(records[best.at]).slice(0, 160)}: ${best.otherwise.join(', ')}`;
  };
  return { unmatched, equal, closest };
}

/**
 * INS-RSP-002 and every acceptance test: the contract record is what was sent. Its contractId,
 * productType and updateDate, where it carries them, are the request's (updateDate the same moment at
 * the precision the answer writes); and every sent item has a stored record of its own that carries
 * the item's period, currency, percent and value (dates compared as days, numbers as numbers): the
 * system "stores them and returns the stored records", so a record that leaves out what was stored
 * returns nothing of it. Judged: the fields compared equal.
 */
export function storedAsSent(sent: SurrenderRequest, body: unknown, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  const record = isJsonObject(body) ? body : {};
  const echo = (key: 'contractId' | 'productType' | 'updateDate', same: (got: unknown, want: string) => boolean, expected: string) => {
    if (typeof record[key] !== 'string') return; // absent (INS-RSP-004's policy), or of another type (INS-RSP-001's)
    count++;
    if (!same(record[key], sent[key]))
      out.push({ ...failure(requirement, expected, JSON.stringify(record[key]), `/${key}`), defect: `${key} is not the one sent` });
  };
  echo('contractId', (got, want) => got === want, `contractId ${JSON.stringify(sent.contractId)}`);
  echo('productType', (got, want) => got === want, `productType ${JSON.stringify(sent.productType)}`);
  echo('updateDate', sameMoment, `updateDate the moment ${sent.updateDate} (at the precision the answer writes)`);
  const stored = (storedOf(body) ?? []).filter(isJsonObject) as StoredRecord[];
  const { unmatched, equal, closest } = unmatchedItems(sent.surrender, stored);
  count += equal;
  if (unmatched.length) {
    const shown = unmatched.slice(0, 3).map((item) => {
      const near = closest(item);
      return `item ${item} ${JSON.stringify(sent.surrender[item])} (${near ? `closest record ${near}` : 'no record left to compare'})`;
    });
    out.push(
      failure(
        requirement,
        "one stored record per sent item, carrying the item's calcPeriodFrom, calcPeriodTo, currency, surrenderPercent and surrenderValue",
        `${unmatched.length} of ${sent.surrender.length} sent items without one among ${stored.length} stored records: ${shown.join('; ')}${unmatched.length > 3 ? '; …' : ''}`,
        '/surrender',
      ),
    );
  }
  return judged(out, count);
}

/** Policy (INS-RSP-004): the contract record and each stored record carry every field 2.5 lists for them. */
export const listedFieldsCarried = (body: unknown, requirement: string): Failure[] =>
  fieldsPresent(body, CONTRACT_RECORD_LISTED, 'the contract record and each stored record with every field 2.5 lists', requirement);

/** A value read with its integers as written, as JSON text. */
const shown = (value: unknown) => (typeof value === 'bigint' ? String(value) : JSON.stringify(value));

/**
 * Policy (INS-RSP-003): stored records carry the contract's contractId, distinct integer ids, and
 * createdAt not after updatedAt; each judged where the record carries the fields. The body is read from
 * its text with its integers as written, so two 19-digit ids that a double would round alike stay two.
 */
export function storedRecordsConsistent(sent: SurrenderRequest, res: CapturedResponse, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  const ids = new Set<string>();
  const body = res.jsonError || res.rawBody === '' ? undefined : parseJsonKeepingIntegers(res.rawBody);
  ((storedOf(body) ?? []).filter(isJsonObject) as StoredRecord[]).forEach((r, i) => {
    if (r.contractId !== undefined) {
      count++;
      if (r.contractId !== sent.contractId)
        out.push({
          ...failure(requirement, `contractId ${JSON.stringify(sent.contractId)}`, shown(r.contractId), `/surrender/${i}/contractId`),
          defect: "a stored record's contractId is not the contract's",
        });
    }
    if (r.id !== undefined) {
      count++;
      const id = typeof r.id === 'bigint' || Number.isInteger(r.id) ? String(r.id) : undefined;
      if (id === undefined) out.push(failure(requirement, 'an integer id', shown(r.id), `/surrender/${i}/id`));
      else if (ids.has(id))
        out.push(failure(requirement, 'an id distinct from the other records', `id ${id} repeated`, `/surrender/${i}/id`));
      if (id !== undefined) ids.add(id);
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
