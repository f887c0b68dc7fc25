/** Dates of spec 2.5: `yyyy-mm-dd` calendar dates and RFC 3339 date-times, read strictly. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** A real day of the calendar: 2024-02-29 is one, 2023-02-29 and 2024-02-30 are not. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A careless reading (faults only): any day 1..31 of any month 1..12, as a parser that rolls 2024-02-30 over to March. */
export function isLooseDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= 31;
}

/** An RFC 3339 date-time whose date part `isDate` accepts. */
export function isDateTime(value: string, isDate: (date: string) => boolean = isCalendarDate): boolean {
  const m = DATE_TIME.exec(value);
  if (!m || !isDate(m[1])) return false;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offsetOk = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return h <= 23 && mi <= 59 && s <= 60 && offsetOk;
}
