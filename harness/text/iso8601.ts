/**
 * Dates and date-times as ISO 8601 writes them, the only notation the spec names ("date-time (ISO 8601,
 * UTC)", 2.4); 2.5 says only "date" and "date-time". RFC 3339, which ajv's formats implement, is one
 * profile of ISO 8601 and refuses much that ISO 8601 allows (basic format, reduced precision, a comma
 * before the fraction, a local time without offset), so a check of the spec's words reads here instead:
 * calendar dates (2024-02-29, 20240229), ordinal (2024-060) and week dates (2024-W09-4); times to the
 * hour, minute or second with a decimal fraction of the last, and an optional Z or offset. Every
 * date must exist in the calendar, and a representation is written in one format throughout, basic or
 * extended (ISO 8601-1:2019, 5.4.2.1): 2026-12-21T210000Z and 20261221T21:00:00Z are neither.
 */

export interface IsoDate {
  year: number;
  month: number;
  day: number;
}

export interface IsoDateTime extends IsoDate {
  hour: number;
  minute: number;
  second: number;
  /** The fraction of the last written unit, in milliseconds (may be fractional). */
  fractionMs: number;
  /** Digits of the smallest unit written, in milliseconds: 3 600 000 for an hour, 1000 for a second, 1 for ".123". */
  precisionMs: number;
  /** Minutes east of UTC; undefined for a local time (no designator). */
  offsetMinutes?: number;
}

/** How a part is written: basic (no separators), extended (with them), or either (no separator to tell: 2024, T10, Z, +03). */
type Form = 'basic' | 'extended' | 'either';

const CALENDAR = /^(\d{4})(-?)(\d{2})\2(\d{2})$/;
const ORDINAL = /^(\d{4})(-?)(\d{3})$/;
const WEEK = /^(\d{4})(-?)W(\d{2})\2([1-7])$/;
const TIME = /^(\d{2})(?:(:?)(\d{2})(?:\2(\d{2}))?)?(?:[.,](\d+))?(Z|z|[+-]\d{2}(?:(:?)\d{2})?)?$/;

const formOf = (separator: string | undefined): Form => (separator === undefined ? 'either' : separator === '' ? 'basic' : 'extended');
/** Whether parts written in these forms make one representation (no basic part beside an extended one). */
const oneForm = (...forms: Form[]) => !(forms.includes('basic') && forms.includes('extended'));

const DAY_MS = 86_400_000;
const utcDay = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day);

function fromDayNumber(ms: number): IsoDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function calendarDate(year: number, month: number, day: number): IsoDate | undefined {
  const d = fromDayNumber(utcDay(year, month, day));
  return d.year === year && d.month === month && d.day === day ? d : undefined;
}

/** Monday of ISO week 1: the week that holds 4 January. */
function firstMonday(year: number): number {
  const jan4 = utcDay(year, 1, 4);
  const weekday = new Date(jan4).getUTCDay() || 7;
  return jan4 - (weekday - 1) * DAY_MS;
}

/** A date of the calendar in any ISO 8601 complete representation, or undefined. */
export function parseIsoDate(text: unknown): IsoDate | undefined {
  return datePart(text)?.date;
}

/** The date a complete representation names, with the form it is written in. */
function datePart(text: unknown): { date: IsoDate; form: Form } | undefined {
  if (typeof text !== 'string') return undefined;
  const c = CALENDAR.exec(text);
  if (c) {
    const date = calendarDate(Number(c[1]), Number(c[3]), Number(c[4]));
    return date && { date, form: formOf(c[2]) };
  }
  const o = ORDINAL.exec(text);
  if (o) {
    const [y, n] = [Number(o[1]), Number(o[3])];
    const date = fromDayNumber(utcDay(y, 1, 1) + (n - 1) * DAY_MS);
    return n >= 1 && date.year === y ? { date, form: formOf(o[2]) } : undefined;
  }
  const w = WEEK.exec(text);
  if (w) {
    const [y, week, weekday] = [Number(w[1]), Number(w[3]), Number(w[4])];
    const ms = firstMonday(y) + ((week - 1) * 7 + weekday - 1) * DAY_MS;
    return week >= 1 && ms < firstMonday(y + 1) ? { date: fromDayNumber(ms), form: formOf(w[2]) } : undefined;
  }
  return undefined;
}

function offsetOf(designator: string | undefined): number | undefined | null {
  if (designator === undefined) return undefined;
  if (/^z$/i.test(designator)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(designator)!;
  const [hours, minutes] = [Number(m[2]), Number(m[3] ?? 0)];
  if (hours > 23 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** A date-time (a date, T, a time) in any ISO 8601 complete or reduced-precision representation, or undefined. */
export function parseIsoDateTime(text: unknown): IsoDateTime | undefined {
  if (typeof text !== 'string') return undefined;
  const parts = text.split(/[Tt]/);
  if (parts.length !== 2) return undefined;
  const date = datePart(parts[0]);
  const t = TIME.exec(parts[1]);
  if (!date || !t) return undefined;
  const offsetForm = t[6] === undefined || t[6].length <= 3 ? 'either' : formOf(t[7]);
  if (!oneForm(date.form, formOf(t[2]), offsetForm)) return undefined;
  const [hour, minute, second] = [Number(t[1]), Number(t[3] ?? 0), Number(t[4] ?? 0)];
  const unitMs = t[4] !== undefined ? 1000 : t[3] !== undefined ? 60_000 : 3_600_000;
  const fraction = t[5] === undefined ? 0 : Number(`0.${t[5]}`);
  const offsetMinutes = offsetOf(t[6]);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && fraction === 0;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 60 || offsetMinutes === null) return undefined;
  const precisionMs = t[5] === undefined ? unitMs : unitMs / 10 ** t[5].length;
  return {
    ...date.date,
    hour,
    minute,
    second,
    fractionMs: fraction * unitMs,
    precisionMs,
    ...(offsetMinutes === undefined ? {} : { offsetMinutes }),
  };
}

export const isIsoDate = (text: unknown): boolean => parseIsoDate(text) !== undefined;
export const isIsoDateTime = (text: unknown): boolean => parseIsoDateTime(text) !== undefined;

/** A date-time in UTC: a zero offset (Z, +00:00, +0000, +00). */
export function isIsoUtcDateTime(text: unknown): boolean {
  return parseIsoDateTime(text)?.offsetMinutes === 0;
}

/** The wall-clock reading in milliseconds, as if it were UTC (a leap second reads as the next second's start). */
function wallClockMs(t: IsoDateTime): number {
  return utcDay(t.year, t.month, t.day) + ((t.hour * 60 + t.minute) * 60 + t.second) * 1000 + t.fractionMs;
}

/** The instant in milliseconds since the epoch, or undefined for a local time (no offset names no instant). */
export function instantMs(t: IsoDateTime): number | undefined {
  return t.offsetMinutes === undefined ? undefined : wallClockMs(t) - t.offsetMinutes * 60_000;
}

const QUARTER_HOUR_MS = 900_000;
/** UTC offsets run from -12:00 to +14:00, in quarter hours. */
const LARGEST_OFFSET_MS = 14 * 3_600_000;

/**
 * Whether `echo` writes the moment `sent` wrote, at the echo's own precision (a server that keeps
 * seconds answers 10:00:00Z for 10:00:00.123Z). Two offsets compare as instants. A local time (no
 * designator) names the moment in a zone it does not say, so beside a time with an offset, or another
 * local time, it writes the same moment when the two readings differ by what a zone's offset can be: a
 * whole number of quarter hours, at most 14 hours (10:00 for 07:00Z is Moscow's reading).
 */
export function sameMoment(echo: unknown, sent: unknown): boolean {
  const e = parseIsoDateTime(echo);
  const s = parseIsoDateTime(sent);
  if (!e || !s) return false;
  const tolerance = Math.max(e.precisionMs, 1);
  const a = instantMs(e);
  const b = instantMs(s);
  if (a !== undefined && b !== undefined) return Math.abs(a - b) < tolerance;
  const difference = (a ?? wallClockMs(e)) - (b ?? wallClockMs(s));
  const zone = Math.round(difference / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  return Math.abs(zone) <= LARGEST_OFFSET_MS && Math.abs(difference - zone) < tolerance;
}

/** Milliseconds to order two date-times of one writer: instants where both have offsets, else clock readings. */
export function orderOf(text: unknown, other: unknown): [number, number] | undefined {
  const a = parseIsoDateTime(text);
  const b = parseIsoDateTime(other);
  if (!a || !b) return undefined;
  const [x, y] = [instantMs(a), instantMs(b)];
  return x !== undefined && y !== undefined ? [x, y] : [wallClockMs(a), wallClockMs(b)];
}

/** Whether two dates name the same day, whatever their representation. */
export function sameDay(a: unknown, b: unknown): boolean {
  const x = parseIsoDate(a);
  const y = parseIsoDate(b);
  return x !== undefined && y !== undefined && x.year === y.year && x.month === y.month && x.day === y.day;
}
