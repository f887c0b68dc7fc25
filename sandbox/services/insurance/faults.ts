/**
 * The insurance faults: each entry names what it breaks and says how, as an edit around the handler
 * (sandbox/faults/modifiers.ts): a rule replaced, a setting changed, the request or the answer edited.
 * The handler (handler.ts) knows none of them.
 */
import type { Answer, BodyRead, Incoming } from '../../exchange.ts';
import { editBody, editJsonBody, faultsOf, never, onRefusal, withHeader } from '../../faults/modifiers.ts';
import { badRequest, crash, internalError, type Refusal } from './answers.ts';
import { CALLER_RULES } from './access.ts';
import { isDateTime, isLooseDate } from './dates.ts';
import type { SurrenderShape } from './handler.ts';
import { BIG_ID_BASE, idsWritten } from './record-edits.ts';
import type { ContractRecord, StoredRecord } from './store.ts';
import {
  BODY_RULES,
  contractIdAtMost,
  CURRENCIES,
  currencyIn,
  finiteNumber,
  periodDate,
  periodsApart,
  productTypeIn,
  surrenderAtMost,
  updateDateFormat,
} from './validate.ts';

const f = faultsOf<SurrenderShape>('insurance');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HUGE_NUMBER = /:\s*-?(?:\d{300,}|\d+(?:\.\d+)?[eE]\+?\d{3,})/;

const created = (answer: Answer) => answer.status === 201;
const contract = (edit: (contract: ContractRecord) => void) => ({ answer: editBody<Answer, ContractRecord>(created, edit) });
/** An edit of every stored record in a 201, free to break the record's type (as the faults mean to). */
const eachRecord = (edit: (record: Record<string, unknown>) => void) =>
  contract((c) => c.surrender.forEach((r) => edit(r as unknown as Record<string, unknown>)));
const requestId = (request: Incoming) => request.headers['x-request-id'];
const callerRule = (answer: Answer) => answer.refusedBy !== undefined && answer.refusedBy in CALLER_RULES;
const rateLimited = (answer: Answer) => answer.refusedBy === 'rate-limit';

export const insuranceFaults = [
  f('ins-contract-id-unbounded', ['INS-LIM-002'], 'contractId longer than 128 characters is accepted', {
    checks: { 'contractId.maxLength': never },
  }),
  f('ins-contract-id-max-127', ['INS-LIM-001'], 'contractId of exactly 128 characters is rejected (off by one)', {
    checks: { 'contractId.maxLength': contractIdAtMost(127) },
  }),
  f('ins-empty-surrender-accepted', ['INS-LIM-004'], 'an empty surrender array is accepted', { checks: { 'surrender.minItems': never } }),
  f('ins-surrender-max-999', ['INS-LIM-003'], 'a surrender array of exactly 1000 items is rejected (off by one)', {
    checks: { 'surrender.maxItems': surrenderAtMost(999) },
  }),
  f('ins-surrender-unbounded', ['INS-LIM-004'], 'a surrender array of 1001 items is accepted', { checks: { 'surrender.maxItems': never } }),
  f('ins-currency-dkk-missing', ['INS-ENM-001', 'INS-GEN-001'], 'DKK is missing from the currency enumeration', {
    checks: { 'surrender[].currency.enum': currencyIn(CURRENCIES.filter((c) => c !== 'DKK')) },
  }),
  f('ins-currency-any', ['INS-ENM-002'], 'any currency string is accepted', { checks: { 'surrender[].currency.enum': never } }),
  f(
    'ins-product-type-universal-missing',
    ['INS-ENM-003', 'INS-RSP-002', 'INS-GEN-001'],
    'productType universal is rejected; only investment is known',
    {
      checks: { 'productType.enum': productTypeIn(['investment']) },
    },
  ),
  f('ins-product-type-any', ['INS-ENM-004'], 'any productType string is accepted', { checks: { 'productType.enum': never } }),
  f('ins-update-date-optional', ['INS-REQ-001'], 'updateDate may be left out', { checks: { 'updateDate.required': never } }),
  f('ins-status-200', ['INS-RSP-001'], 'a stored request is answered 200 instead of 201', {
    answer: (a) => (created(a) ? { ...a, status: 200 } : a),
  }),
  f(
    'ins-record-percent-string',
    ['INS-RSP-001'],
    'stored records carry surrenderPercent as a string, as a decimal column serialises',
    eachRecord((r) => void (r.surrenderPercent = String(r.surrenderPercent))),
  ),
  f(
    'ins-record-id-string',
    ['INS-RSP-001'],
    'stored record ids are strings, not integers',
    eachRecord((r) => void (r.id = String(r.id))),
  ),
  f(
    'ins-value-rounded',
    ['INS-RSP-002'],
    'surrenderValue is stored rounded to whole units',
    eachRecord((r) => void (r.surrenderValue = Math.round(r.surrenderValue as number))),
  ),
  f(
    'ins-only-first-item-stored',
    ['INS-RSP-002'],
    'only the first surrender item is stored',
    contract((c) => void (c.surrender = c.surrender.slice(0, 1))),
  ),
  f(
    'ins-record-ids-repeat',
    ['INS-RSP-003'],
    'all records of one request get the same id',
    contract((c) => c.surrender.forEach((r) => (r.id = c.surrender[0].id))),
  ),
  f(
    'ins-created-after-updated',
    ['INS-RSP-003'],
    'records are stamped createdAt after updatedAt',
    eachRecord((r) => void (r.createdAt = new Date(Date.parse(r.updatedAt as string) + 60_000).toISOString())),
  ),
  f('ins-no-rate-limit', ['INS-RAT-001'], 'the 20 requests per second limit is counted but not enforced', {
    checks: { 'rate-limit': never },
  }),
  f('ins-rate-limit-too-strict', ['INS-RAT-002'], 'the limit is enforced at 5 requests per second', { settings: { perSecond: 5 } }),
  f('ins-no-auth', ['INS-AUT-001'], 'a request without credentials is served', { checks: { 'auth.bearer': never } }),
  f('ins-bad-token-403', ['INS-AUT-002'], 'an invalid token is answered 403 instead of 401', {
    answer: onRefusal('auth.known', (a) => ({ ...a, status: 403 })),
  }),
  f('ins-scope-not-checked', ['INS-AUT-003', 'INS-AUT-004'], 'a token without the partner scopes is served', {
    checks: { 'auth.scope.interaction': never, 'auth.scope.data-transfer': never },
  }),
  f('ins-period-order-unchecked', ['INS-SEM-001'], 'calcPeriodFrom after calcPeriodTo is accepted', {
    checks: { 'surrender[].periodOrder': never },
  }),
  f('ins-request-id-replays', ['INS-HDR-001'], 'X-Request-Id is used as an idempotency key: a repeated id replays the earlier answer', {
    // Behind the checks of the caller, as an idempotency cache would be: a served answer is kept by its id.
    answer: (a, request, earlier) => {
      const id = requestId(request);
      if (typeof id !== 'string' || callerRule(a)) return a;
      const before = earlier.get(id);
      if (before) return before;
      if (a.status < 300) earlier.set(id, a);
      return a;
    },
  }),
  f('ins-malformed-json-500', ['INS-ERR-001'], 'a malformed JSON body crashes the handler (500)', {
    answer: onRefusal('body.json', crash('internal error')),
  }),
  f(
    'ins-malformed-json-415',
    ['INS-STA-001', 'INS-ERR-001'],
    'a malformed JSON body is answered 415, a status part 7 does not list for the method (and not the 400 or 422 a malformed body gets)',
    { answer: onRefusal('body.json', (a) => ({ ...a, status: 415 })) },
  ),
  f('ins-text-plain-500', ['INS-ERR-002'], 'a text/plain body crashes the handler (500)', {
    answer: onRefusal('body.content-type', crash('unexpected body')),
  }),
  f('ins-huge-number-500', ['INS-ERR-003'], 'an out-of-range number crashes the handler (500)', {
    checks: {
      'body.json': (read: BodyRead): Refusal | undefined =>
        BODY_RULES['body.json'](read) ?? (HUGE_NUMBER.test(read.request.text) ? internalError('number out of range') : undefined),
    },
  }),
  f('ins-lenient-dates', ['INS-TYP-002'], 'impossible calendar dates such as 2024-02-30 roll over and are accepted', {
    checks: {
      'surrender[].calcPeriodFrom.format': periodDate('calcPeriodFrom', isLooseDate),
      'surrender[].calcPeriodTo.format': periodDate('calcPeriodTo', isLooseDate),
      'updateDate.format': updateDateFormat((v) => isDateTime(v, isLooseDate)),
    },
  }),
  f('ins-dotted-dates-accepted', ['INS-TYP-003'], 'calculation periods written dd.mm.yyyy are read as day.month.year and accepted', {
    request: editJsonBody((body) => {
      for (const item of Array.isArray(body.surrender) ? body.surrender : []) {
        for (const key of ['calcPeriodFrom', 'calcPeriodTo']) {
          const m = typeof item?.[key] === 'string' ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(item[key]) : null;
          if (m) item[key] = `${m[3]}-${m[2]}-${m[1]}`;
        }
      }
    }),
  }),
  f(
    'ins-datetime-offset-rejected',
    ['INS-GEN-001', 'INS-RSP-002'],
    'an updateDate with a numeric UTC offset (+03:00) is rejected; only Z is understood',
    {
      checks: { 'updateDate.format': updateDateFormat((v) => isDateTime(v) && /z$/i.test(v)) },
    },
  ),
  f('ins-value-string-coerced', ['INS-NEG-001'], 'a surrenderValue sent as a string passes the type check and is accepted', {
    checks: { 'surrender[].surrenderValue.type': finiteNumber('surrenderValue', (v) => typeof v === 'string') },
  }),
  f('ins-contract-id-coerced', ['INS-TYP-001'], 'a non-string contractId is coerced to a string and accepted', {
    request: editJsonBody((body) => {
      if (body.contractId !== undefined && typeof body.contractId !== 'string') body.contractId = String(body.contractId);
    }),
  }),
  f('ins-interaction-scope-not-checked', ['INS-AUT-004'], 'a token with the data-transfer scope but not the interaction scope is served', {
    checks: { 'auth.scope.interaction': never },
  }),
  f(
    'ins-data-transfer-scope-not-checked',
    ['INS-AUT-004'],
    'a token with the interaction scope but not the data-transfer scope is served',
    { checks: { 'auth.scope.data-transfer': never } },
  ),
  f('ins-request-id-required', ['INS-HDR-002'], 'a request without X-Request-Id is refused with 400', {
    checks: {
      'request-id': ({ request }) => (requestId(request) === undefined ? badRequest('the X-Request-Id header is required') : undefined),
    },
  }),
  f('ins-request-id-uuid-enforced', ['INS-HDR-003'], 'a request whose X-Request-Id is not a UUID is refused with 400', {
    checks: {
      'request-id': ({ request }) =>
        typeof requestId(request) === 'string' && !UUID.test(requestId(request) as string)
          ? badRequest('X-Request-Id must be a UUID')
          : undefined,
    },
  }),
  f(
    'ins-records-empty',
    ['INS-RSP-002'],
    "the stored records are answered as empty objects, one per item (a serialiser that knows none of the record's fields)",
    contract((c) => void (c.surrender = c.surrender.map(() => ({}) as StoredRecord))),
  ),
  f(
    'ins-listed-fields-dropped',
    ['INS-RSP-004'],
    'the contract record leaves out productType and the stored records their id',
    contract((c) => {
      delete (c as Partial<ContractRecord>).productType;
      for (const r of c.surrender) delete (r as Partial<StoredRecord>).id;
    }),
  ),
  f(
    'ins-last-item-dropped',
    ['INS-LIM-003'],
    'a request of 1000 items is answered 201 with its first 999 stored (a page size one short)',
    contract((c) => void (c.surrender = c.surrender.slice(0, 999))),
  ),
  f(
    'ins-contract-id-truncated',
    ['INS-LIM-001'],
    'a contractId of 128 characters is stored cut to 127 (a column one character short)',
    contract((c) => {
      c.contractId = c.contractId.slice(0, 127);
      for (const r of c.surrender) r.contractId = c.contractId;
    }),
  ),
  f(
    'ins-hkd-stored-as-cny',
    ['INS-ENM-001', 'INS-GEN-001'],
    'amounts in HKD are stored in CNY (one code for both Chinese currencies)',
    eachRecord((r) => void (r.currency === 'HKD' && (r.currency = 'CNY'))),
  ),
  f(
    'ins-universal-stored-as-investment',
    ['INS-RSP-002'],
    'a contract of productType universal is stored as investment',
    contract((c) => void (c.productType = 'investment')),
  ),
  f(
    'ins-adjacent-periods-refused',
    ['INS-LIM-003', 'INS-RSP-001', 'INS-GEN-001'],
    'items whose periods touch (one starts the day after another ends) are refused 422 as overlapping: an overlap check one day off',
    { checks: { 'surrender[].periodsApart': periodsApart(1) } },
  ),
  f('ins-big-ids-repeat', ['INS-RSP-003'], 'every stored record of a request gets the same 19-digit id', {
    answer: idsWritten(() => BIG_ID_BASE + 789n),
  }),
  f(
    'ins-update-date-server-time',
    ['INS-RSP-002'],
    "updateDate is answered as the server's own time of storing, written without a zone (a LocalDateTime column defaulting to now)",
    contract((c) => void (c.updateDate = c.updatedAt.slice(0, 23))),
  ),
  f(
    'ins-update-date-offset-lost',
    ['INS-RSP-002'],
    'updateDate is stored as its clock reading and answered as UTC: the offset sent is lost (10:00+03:00 comes back 10:00Z)',
    {
      answer: (a, request) => {
        const sent = /"updateDate"\s*:\s*"([^"]+)"/.exec(request.text)?.[1];
        const reading = sent && /^(.*T[\d:.,]+)[+-]\d{2}:?\d{2}$/.exec(sent)?.[1];
        return reading ? editBody<Answer, ContractRecord>(created, (c) => void (c.updateDate = `${reading}Z`))(a) : a;
      },
    },
  ),
  f(
    'ins-burst-500-not-429',
    ['INS-RAT-001', 'INS-RAT-003'],
    'a request over the rate limit crashes the handler (500) instead of drawing 429',
    {
      answer: (a) => (rateLimited(a) ? crash('rate limiter failed')(a) : a),
    },
  ),
  f('ins-429-text-plain', ['INS-CTY-001'], 'a 429 carries its JSON body labelled text/plain', {
    answer: (a) => (rateLimited(a) ? withHeader(a, 'content-type', 'text/plain; charset=utf-8') : a),
  }),
  f('ins-error-text-plain', ['INS-CTY-001'], 'refusals of bad requests (400, 422) carry their JSON body labelled text/plain', {
    answer: (a) => (a.status === 400 || a.status === 422 ? withHeader(a, 'content-type', 'text/plain; charset=utf-8') : a),
  }),
];
