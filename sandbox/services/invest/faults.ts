import type { Fault } from '../../faults/types.ts';

const f = (id: string, catches: string[], description: string): Fault => ({ id, area: 'invest', catches, description });

export const investFaults: Fault[] = [
  f('inv-nano-overflow', ['INV-VAL-002', 'INV-RSP-001'], 'a whole amount is written without carrying: 12 becomes units 11, nano 1000000000'),
  f('inv-units-decimal', ['INV-VAL-001', 'INV-RSP-001', 'INV-TOT-001'], 'MoneyValue units carry the whole decimal ("12.5") and nano 0'),
  f('inv-opposite-signs', ['INV-VAL-003'], 'negative amounts are split with floor division: -2.5 becomes units -3, nano 500000000'),
  f('inv-units-uint64-wrap', ['INV-VAL-004', 'INV-VAL-003'], 'negative Quotation units are written as unsigned 64-bit integers: -3 becomes 18446744073709551613'),
  f('inv-total-wrong-currency', ['INV-CUR-001', 'INV-CUR-003', 'INV-TOT-001'], 'with USD or EUR requested, totalAmountBonds stays in RUB'),
  f('inv-default-not-rub', ['INV-CUR-002'], 'with currency omitted the totals come in USD instead of the default RUB'),
  f('inv-currency-relabelled', ['INV-CUR-003'], 'totals in USD or EUR are the RUB numbers with the requested currency written on them'),
  f('inv-currency-any', ['INV-CUR-004'], 'a currency outside RUB, USD, EUR is treated as RUB and served'),
  f('inv-virtual-expire-local', ['INV-VIR-001', 'INV-RSP-001'], 'virtual positions expire at a Moscow-time date-time (+03:00), not UTC'),
  f('inv-portfolio-total-off', ['INV-TOT-001'], 'totalAmountPortfolio leaves out the options total'),
  f('inv-account-ignored', ['INV-RSP-002'], "the token's first account is served whatever accountId asks for"),
  f('inv-empty-portfolio-204', ['INV-STA-001', 'INV-RSP-002', 'INV-CUR-001', 'INV-CUR-002'], 'an account without positions is answered 204 No Content'),
  f('inv-no-ratelimit-headers', ['INV-HDR-001'], 'answers carry no x-ratelimit-* headers'),
  f('inv-no-rate-limit', ['INV-RAT-001'], 'the 200 requests per minute limit is counted and reported in the headers but never enforced'),
  f('inv-no-auth', ['INV-AUT-001', 'INV-ERR-003'], 'a request without a token is served'),
  f('inv-bad-token-403', ['INV-AUT-002'], 'an unknown token is answered 403 instead of 401'),
  f('inv-foreign-account-readable', ['INV-AUT-003', 'INV-AUT-004', 'INV-ERR-003'], "any valid token may read any account (broken object-level authorization)"),
  f('inv-unknown-account-200', ['INV-ACC-001', 'INV-ACC-002', 'INV-ERR-003'], 'an unknown account is answered 200 with an empty portfolio'),
  f('inv-unknown-account-403', ['INV-ACC-002'], 'an unknown account is answered 403 instead of 404'),
  f('inv-missing-account-500', ['INV-REQ-001'], 'a request without accountId crashes the handler (500)'),
  f('inv-account-id-coerced', ['INV-REQ-002'], 'a numeric accountId is coerced to a string and served'),
  f('inv-malformed-json-500', ['INV-ERR-001'], 'a malformed JSON body crashes the handler (500)'),
  f('inv-form-body-accepted', ['INV-ERR-002'], 'a form-encoded body is parsed and served instead of refused'),
  f('inv-error-without-description', ['INV-ERR-003'], 'error bodies lack the description (API error code)'),
  f('inv-error-text-plain', ['INV-CTY-001'], 'error answers carry their JSON body labelled text/plain'),
  f('inv-blocked-text-in-foreign-currency', ['INV-GEN-001'], 'with USD or EUR requested, positions carry blocked as the string "false"'),
];
