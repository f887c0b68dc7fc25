/** ISO 8601 as the spec's dates and date-times are read (harness/text/iso8601.ts): its forms, one format throughout, the same moment. */
import { describe, expect, it } from 'vitest';
import { isIsoDate, isIsoDateTime, isIsoUtcDateTime, sameMoment } from '../../harness/text/iso8601.ts';

describe('ISO 8601 representations', () => {
  it('reads calendar, ordinal and week dates, basic or extended, and refuses days the calendar lacks', () => {
    for (const date of ['2024-02-29', '20240229', '2024-060', '2024060', '2024-W09-4', '2024W094'])
      expect(isIsoDate(date), date).toBe(true);
    for (const date of ['2023-02-29', '2024-13-01', '2024-0229', '202402-29', '2024-W094', '2024W09-4', '29.02.2024']) {
      expect(isIsoDate(date), date).toBe(false);
    }
  });

  it('reads date-times in one format throughout, to the hour, minute or second, with a fraction and any designator', () => {
    for (const text of [
      '2026-12-21T21:00:00Z',
      '20261221T210000Z',
      '2026-12-21T21:00Z',
      '20261221T2100Z',
      '2026-12-21T21Z',
      '20261221T21Z',
      '2026-12-21T21:00:00,5+03:00',
      '20261221T210000.5+0300',
      '2026-12-21T21:00:00+03',
      '20261221T210000+03',
      '2026-12-21T21:00:00',
    ]) {
      expect(isIsoDateTime(text), text).toBe(true);
    }
  });

  it('refuses a date-time that mixes the basic and the extended format (ISO 8601-1, 5.4.2.1)', () => {
    for (const text of [
      '2026-12-21T210000Z',
      '20261221T21:00:00Z',
      '2026-12-21T21:0000Z',
      '2026-12-21T2100:00Z',
      '2026-12-21T21:00:00+0300',
      '20261221T210000+03:00',
      '2024-W09-4T1000Z',
    ]) {
      expect(isIsoDateTime(text), text).toBe(false);
      expect(isIsoUtcDateTime(text), text).toBe(false);
    }
  });
});

describe('sameMoment', () => {
  it('compares instants at the precision the echo writes', () => {
    expect(sameMoment('2025-01-01T10:00:00Z', '2025-01-01T10:00:00.123Z')).toBe(true);
    expect(sameMoment('2025-01-01T13:00:00.123+03:00', '2025-01-01T10:00:00.123Z')).toBe(true);
    expect(sameMoment('2025-01-01T10:00:00.124Z', '2025-01-01T10:00:00.123Z')).toBe(false);
    expect(sameMoment('2025-01-01T10:00:00.123Z', '2025-01-01T10:00:00.123+03:00')).toBe(false);
  });

  it('takes a local time for the moment in some zone: a reading a whole number of quarter hours off, at most 14 hours', () => {
    const sent = '2025-01-01T10:00:00.123+03:00';
    for (const local of ['2025-01-01T07:00:00.123', '2025-01-01T10:00:00.123', '2025-01-01T12:45:00.123', '2024-12-31T17:00:00.123']) {
      expect(sameMoment(local, sent), local).toBe(true);
    }
    for (const local of ['2025-01-01T07:00:00.124', '2025-01-01T07:07:00.123', '2025-01-02T07:00:00.123', '2024-12-31T16:45:00.123']) {
      expect(sameMoment(local, sent), local).toBe(false);
    }
    expect(sameMoment('2025-01-01T13:00:00Z', '2025-01-01T10:00:00')).toBe(true);
  });
});
