/**
 * Dates and date-times as ISO 8601 writes them, the only notation the spec names ("date-time (ISO 8601,
 * UTC)", 2.4); 2.5 says only "date" and "date-time". RFC 3339, which ajv's formats implement, is one
 * profile of ISO 8601 and refuses much that ISO 8601 allows (basic format, reduced precision, a comma
 * before the fraction, a local time without offset), so a check of the spec's words reads here instead:
 * calendar dates (2024-02-29, 20240229), ordinal (2024-060) and week dates (2024-W09-4); times to the
 * hour, minute or second with a decimal fraction of the last, and an optional Z or offset. Every
 * date must exist in the calendar.
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

const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})$|^(\d{4})(\d{2})(\d{2})$/;
const ORDINAL = /^(\d{4})-?(\d{3})$/;
const WEEK = /^(\d{4})-?W(\d{2})-?([1-7])$/;
const TIME = /^(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?(?:[.,](\d+))?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

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
  if (typeof text !== 'string') return undefined;
  const c = CALENDAR.exec(text);
  if (c) {
    const [y, m, d] = (c[1] ? c.slice(1, 4) : c.slice(4, 7)).map(Number);
    return calendarDate(y, m, d);
  }
  const o = ORDINAL.exec(text);
  if (o) {
    const [y, n] = [Number(o[1]), Number(o[2])];
    const date = fromDayNumber(utcDay(y, 1, 1) + (n - 1) * DAY_MS);
    return n >= 1 && date.year === y ? date : undefined;
  }
  const w = WEEK.exec(text);
  if (w) {
    const [y, week, weekday] = [Number(w[1]), Number(w[2]), Number(w[3])];
    const ms = firstMonday(y) + ((week - 1) * 7 + weekday - 1) * DAY_MS;
    return week >= 1 && ms < firstMonday(y + 1) ? fromDayNumber(ms) : undefined;
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
  const date = parseIsoDate(parts[0]);
  const t = TIME.exec(parts[1]);
  if (!date || !t) return undefined;
  const [hour, minute, second] = [Number(t[1]), Number(t[2] ?? 0), Number(t[3] ?? 0)];
  const unitMs = t[3] !== undefined ? 1000 : t[2] !== undefined ? 60_000 : 3_600_000;
  const fraction = t[4] === undefined ? 0 : Number(`0.${t[4]}`);
  const offsetMinutes = offsetOf(t[5]);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && fraction === 0;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 60 || offsetMinutes === null) return undefined;
  const precisionMs = t[4] === undefined ? unitMs : unitMs / 10 ** t[4].length;
  return {
    ...date,
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

/**
 * Whether `echo` writes the moment `sent` wrote, at the echo's own precision (a server that keeps
 * seconds answers 10:00:00Z for 10:00:00.123Z). Two offsets compare as instants; a local time without
 * one compares as the same reading of the clock.
 */
export function sameMoment(echo: unknown, sent: unknown): boolean {
  const e = parseIsoDateTime(echo);
  const s = parseIsoDateTime(sent);
  if (!e || !s) return false;
  const a = instantMs(e);
  const b = instantMs(s);
  const [x, y] = a !== undefined && b !== undefined ? [a, b] : [wallClockMs(e), wallClockMs(s)];
  return Math.abs(x - y) < Math.max(e.precisionMs, 1);
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
