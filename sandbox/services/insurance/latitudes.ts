/**
 * The insurance latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import type { Answer } from '../../exchange.ts';
import { asProblem, withCharset } from '../../faults/answer-edits.ts';
import { editBody, latitudesOf, type ModifierLatitude } from '../../faults/modifiers.ts';
import type { SurrenderShape } from './handler.ts';
import { crash } from './answers.ts';
import { BIG_ID_BASE, idsWritten } from './record-edits.ts';
import { periodsApart } from './validate.ts';

type Node = Record<string, unknown>;

const latitude = latitudesOf<SurrenderShape>('insurance');

const created = (a: Answer) => a.status === 201;
const contract = (edit: (c: Node, records: Node[]) => Node | void) => ({
  answer: editBody<Answer, Node>(created, (c) => edit(c, c.surrender as Node[])),
});
const DATE_TIMES = ['createdAt', 'updatedAt', 'updateDate'];
/** Every date-time of the contract record and its stored records, rewritten. */
const eachDateTime = (edit: (text: string) => string) =>
  contract((c, records) => {
    for (const node of [c, ...records])
      for (const key of DATE_TIMES) if (typeof node[key] === 'string') node[key] = edit(node[key] as string);
  });
/** The same instant as a UTC wall-clock reading without a zone designator (a LocalDateTime column kept in UTC). */
const local = (text: string) => new Date(Date.parse(text)).toISOString().slice(0, 23);
/** The same instant written in Moscow time (+03:00), to the millisecond. */
const moscow = (text: string) => `${new Date(Date.parse(text) + 3 * 3600_000).toISOString().slice(0, 23)}+03:00`;

const RECORDS =
  'Stored surrender record (response element): contractId (string), id (integer), createdAt (date-time), updatedAt (date-time), providerName (string), currency (same enumeration), calcPeriodFrom (date), calcPeriodTo (date), surrenderPercent (number), surrenderValue (number).';
const STATUSES =
  'Set surrender amounts | 201 OK; 400 incorrect request; 401 authentication error; 403 authorization error; 422 data processing error; 429 too many requests; 500 server error';
const CONTRACT =
  'Contract record (response): createdAt, updatedAt, updateDate (date-time), providerName (string), productType (investment or universal), contractId (string), surrender (array of stored surrender records).';

export const insuranceLatitudes: ModifierLatitude<SurrenderShape>[] = [
  latitude(
    'ins-lat-422-for-400',
    [STATUSES],
    'every request refused as incorrect (400) is refused as a data processing error (422) instead',
    { answer: (answer) => (answer.status === 400 ? { ...answer, status: 422 } : answer) },
    'Part 7 lists both 400 and 422 as refusals of the surrender call and does not say which rule each one answers.',
  ),
  latitude(
    'ins-lat-optional-fields-absent',
    [RECORDS, CONTRACT],
    "the records leave out what the partner knows already: providerName everywhere, the stored records' contractId, createdAt and updatedAt",
    contract((c, records) => {
      delete c.providerName;
      for (const r of records) for (const key of ['providerName', 'contractId', 'createdAt', 'updatedAt']) delete r[key];
    }),
    '2.5 gives the fields of the records by name and type and marks none required; 4.4 requires the stored records themselves.',
  ),
  latitude(
    'ins-lat-extra-fields',
    [CONTRACT],
    'the contract record and its stored records carry fields 2.5 does not name',
    contract((c, records) => {
      Object.assign(c, { status: 'ACTIVE', version: 1 });
      for (const r of records) r.source = 'partner-api';
    }),
    '2.5 names fields and does not say the list is closed.',
  ),
  latitude(
    'ins-lat-offset-date-times',
    [CONTRACT, RECORDS],
    'every date-time, the echoed updateDate too, is written in Moscow time (+03:00): the same instant in another zone',
    eachDateTime(moscow),
    '2.5 says date-time and names no zone; an offset names the same instant.',
  ),
  latitude(
    'ins-lat-whole-seconds',
    [CONTRACT, RECORDS],
    'date-times are kept to the second: no fractional seconds, the echoed updateDate truncated to the second as a seconds column keeps it',
    eachDateTime((text) => text.replace(/(T\d{2}:\d{2}:\d{2})[.,]\d+/, '$1')),
    'date-time names no precision.',
  ),
  latitude(
    'ins-lat-records-in-another-order',
    ['Response 201: the contract record of 2.5 with the stored surrender records.'],
    'the stored records come in reverse order of the items sent',
    contract((c, records) => void (c.surrender = [...records].reverse())),
    '4.4 returns the stored records and says nothing of their order.',
  ),
  latitude(
    'ins-lat-error-problem-details',
    ['Error body shape for the portfolio and surrender operations: not shown.'],
    'every refusal is RFC 9457 problem details (application/problem+json)',
    {
      answer: (a) => (a.status >= 400 ? asProblem(a, 'Request refused') : a),
    },
    'The shape is not shown; application/problem+json is JSON.',
  ),
  latitude(
    'ins-lat-request-id-not-echoed',
    ['X-Request-Id (string, uuid; request-tracing identifier; does not affect execution)'],
    'answers do not repeat the X-Request-Id header',
    {
      answer: (a) => {
        const { 'x-request-id': _id, ...headers } = a.headers;
        return { ...a, headers };
      },
    },
    '4.4 names the header on the request only.',
  ),
  latitude('ins-lat-charset', ['All bodies are JSON unless stated.'], 'every JSON answer is labelled application/json; charset=utf-8', {
    answer: (a) => withCharset(a),
  }),
  latitude(
    'ins-lat-local-date-times',
    [CONTRACT, RECORDS],
    'every date-time is written without a zone designator, as the UTC reading of the clock (2024-05-01T10:00:00.123), the echoed updateDate too',
    eachDateTime(local),
    '2.5 says date-time and names no zone; ISO 8601 writes a local time without a designator, as a LocalDateTime column serialises.',
  ),
  latitude(
    'ins-lat-contract-keeps-earlier-sets',
    [CONTRACT, 'the system stores them and returns the stored records'],
    'a contract keeps every set of surrender amounts it was sent: a second request for a contract answers with the records stored before beside the new ones',
    {
      answer: (a, _request, memory) => {
        if (a.status !== 201 || !a.body) return a;
        const body = structuredClone(a.body) as Node;
        const id = String(body.contractId);
        const before = (memory.get(id)?.body as Node | undefined)?.surrender as Node[] | undefined;
        const kept = { ...a, body: { ...body, surrender: [...(before ?? []), ...(body.surrender as Node[])] } };
        memory.set(id, kept);
        return kept;
      },
    },
    '2.5\'s contract record holds "the stored surrender records" of the contract; whether a new set replaces the records stored before or joins them is not said.',
  ),
  latitude(
    'ins-lat-429-bare',
    ['In the surrender operation, 429 follows exceeding the request rate of part 8.'],
    'a 429 carries no Retry-After and no rate-limit headers: the status alone says it',
    {
      answer: (a) =>
        a.status === 429
          ? {
              ...a,
              headers: Object.fromEntries(
                Object.entries(a.headers).filter(([name]) => name !== 'retry-after' && !name.startsWith('x-ratelimit-')),
              ),
            }
          : a,
    },
    'Part 7 and part 8 give the status and the limit, and no header of the 429.',
  ),
  latitude(
    'ins-lat-overlapping-periods-422',
    [STATUSES, 'A partner writes surrender amounts (percent and value per calculation period) for an insurance contract'],
    'a request whose items share or overlap a calculation period is refused 422 as data that cannot be processed',
    { checks: { 'surrender[].periodsApart': periodsApart(0) } },
    'Part 7 lists 422 data processing error without saying what cannot be processed; two amounts for one calculation period of one contract are data a store may refuse.',
  ),
  latitude(
    'ins-lat-big-record-ids',
    [RECORDS],
    'stored record ids are 19-digit integers (snowflake ids), which differ only past the 16th digit',
    { answer: idsWritten((id) => BIG_ID_BASE + BigInt(id)) },
    '2.5 says "id (integer)" and sets no range; JSON numbers have none.',
  ),
  latitude(
    'ins-lat-burst-some-500',
    [STATUSES, 'In the surrender operation, 429 follows exceeding the request rate of part 8.'],
    'during a burst, about half the requests over the limit are answered 500 server error instead of 429 (the limiter times out under the load), the rest 429',
    // Decided by the request's own X-Request-Id, so that each sandbox answers alike without keeping a count.
    {
      answer: (a, request) =>
        a.refusedBy === 'rate-limit' && /^[0-7]/.test(String(request.headers['x-request-id'])) ? crash('rate limiter timed out')(a) : a,
    },
    'Part 7 lists 500 server error among the statuses of the method and says nothing of when it may come; 429s still follow the exceeded rate.',
  ),
];
