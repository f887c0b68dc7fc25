import type { Fault } from '../../faults/types.ts';

const f = (id: string, catches: string[], description: string): Fault => ({ id, area: 'insurance', catches, description });

export const insuranceFaults: Fault[] = [
  f('ins-contract-id-unbounded', ['INS-LIM-002'], 'contractId longer than 128 characters is accepted'),
  f('ins-contract-id-max-127', ['INS-LIM-001'], 'contractId of exactly 128 characters is rejected (off by one)'),
  f('ins-empty-surrender-accepted', ['INS-LIM-004'], 'an empty surrender array is accepted'),
  f('ins-surrender-max-999', ['INS-LIM-003'], 'a surrender array of exactly 1000 items is rejected (off by one)'),
  f('ins-surrender-unbounded', ['INS-LIM-004'], 'a surrender array of 1001 items is accepted'),
  f('ins-currency-dkk-missing', ['INS-ENM-001'], 'DKK is missing from the currency enumeration'),
  f('ins-currency-any', ['INS-ENM-002'], 'any currency string is accepted'),
  f('ins-product-type-any', ['INS-ENM-004'], 'any productType string is accepted'),
  f('ins-update-date-optional', ['INS-REQ-001'], 'updateDate may be left out'),
  f('ins-status-200', ['INS-RSP-001', 'INS-STA-001'], 'a stored request is answered 200 instead of 201'),
  f('ins-record-without-provider-name', ['INS-RSP-001'], 'stored records lack providerName'),
  f('ins-record-id-string', ['INS-RSP-001'], 'stored record ids are strings, not integers'),
  f('ins-value-rounded', ['INS-RSP-002'], 'surrenderValue is stored rounded to whole units'),
  f('ins-only-first-item-stored', ['INS-RSP-002'], 'only the first surrender item is stored'),
  f('ins-record-ids-repeat', ['INS-RSP-003'], 'all records of one request get the same id'),
  f('ins-created-after-updated', ['INS-RSP-003'], 'records are stamped createdAt after updatedAt'),
  f('ins-no-rate-limit', ['INS-RAT-001'], 'the 20 requests per second limit is not enforced'),
  f('ins-rate-limit-too-strict', ['INS-RAT-002'], 'the limit is enforced at 5 requests per second'),
  f('ins-no-auth', ['INS-AUT-001'], 'a request without credentials is served'),
  f('ins-bad-token-403', ['INS-AUT-002'], 'an invalid token is answered 403 instead of 401'),
  f('ins-scope-not-checked', ['INS-AUT-003'], 'a token without the partner scopes is served'),
  f('ins-period-order-unchecked', ['INS-SEM-001'], 'calcPeriodFrom after calcPeriodTo is accepted'),
  f('ins-request-id-replays', ['INS-HDR-001'], 'X-Request-Id is used as an idempotency key: a repeated id replays the earlier answer'),
  f('ins-malformed-json-500', ['INS-ERR-001'], 'a malformed JSON body crashes the handler (500)'),
  f('ins-text-plain-500', ['INS-ERR-002'], 'a text/plain body crashes the handler (500)'),
  f('ins-huge-number-500', ['INS-ERR-003'], 'an out-of-range number crashes the handler (500)'),
  f('ins-lenient-dates', ['INS-TYP-002'], 'impossible calendar dates such as 2024-02-30 roll over and are accepted'),
  f('ins-contract-id-coerced', ['INS-TYP-001'], 'a non-string contractId is coerced to a string and accepted'),
];
