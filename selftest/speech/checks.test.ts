/** The speech checks: acceptance and refusal, the leeway ladder, secret echoes, the clock offset. */
import { describe, expect, it } from 'vitest';
import { accepted, clockOffsetSeconds, echoesNoSecret, leewayFigure, notRefusedAsUnauthenticated } from '../../harness/checks/speech.ts';
import { cannedResponse } from '../helpers.ts';
import type { CapturedResponse } from '../../harness/http.ts';

function response(status: number, rawBody = '', headers: Record<string, string> = {}, durationMs = 10): CapturedResponse {
  return cannedResponse(status, rawBody, headers, durationMs);
}

const ladder = (statuses: number[], offsets = [2, 10, 20, 45, 75, 150, 300]) => statuses.map((status, i) => ({ offsetSeconds: offsets[i], status }));

describe('accepted / notRefusedAsUnauthenticated', () => {
  it('accepts any 2xx and names a refusal or a server error', () => {
    expect(accepted(response(200), 'R')).toEqual([]);
    expect(accepted(response(204), 'R')).toEqual([]);
    expect(accepted(response(401), 'R')[0]).toMatchObject({ requirement: 'R', expected: 'accepted (2xx)', received: 'refused with 401' });
    expect(accepted(response(502), 'R')[0].received).toBe('server error 502');
  });

  it('lets anything but 401, 403 and 5xx pass as "not refused as unauthenticated"', () => {
    for (const status of [200, 400, 404, 413]) expect(notRefusedAsUnauthenticated(response(status), 'R')).toEqual([]);
    for (const status of [401, 403, 500]) expect(notRefusedAsUnauthenticated(response(status), 'R')).toHaveLength(1);
  });
});

describe('leewayFigure', () => {
  it('reads a single threshold as the leeway, without failing', () => {
    const f = leewayFigure('exp', ladder([200, 200, 200, 401, 401, 401, 401]), 'R');
    expect(f).toMatchObject({ acceptedUpTo: 20, refusedFrom: 45, failures: [] });
    expect(f.text).toBe('exp: accepted 20 s after, refused 45 s after (leeway between 20 and 45 s)');
  });

  it('reports a leeway beyond the ladder, and none at all, without failing', () => {
    expect(leewayFigure('nbf', ladder([200, 200, 200, 200, 200, 200, 200]), 'R')).toMatchObject({ failures: [], text: 'nbf: accepted up to at least 300 s before (no probe refused)' });
    expect(leewayFigure('iat', ladder([403, 403, 403, 403, 403, 403, 403]), 'R')).toMatchObject({ failures: [], text: 'iat: refused from 2 s before (leeway under 2 s)' });
  });

  it('fails when a larger offset is accepted after a smaller one was refused', () => {
    const f = leewayFigure('exp', ladder([200, 401, 200, 401, 401, 401, 401]), 'R');
    expect(f.failures).toHaveLength(1);
    expect(f.failures[0].received).toMatch(/refused at 10 s but accepted at 20 s/);
  });

  it('fails on an answer that is neither 2xx nor 401/403', () => {
    const f = leewayFigure('exp', ladder([200, 200, 500, 401, 400, 401, 401]), 'R');
    expect(f.failures.map((x) => x.received)).toEqual(['status 500', 'status 400']);
  });

  it('orders probes by offset, whatever order they were sent in', () => {
    const probes = ladder([200, 200, 200, 401, 401, 401, 401]).reverse();
    expect(leewayFigure('exp', probes, 'R')).toMatchObject({ acceptedUpTo: 20, refusedFrom: 45, failures: [] });
  });
});

describe('echoesNoSecret', () => {
  const secret = 'S3cr3t-value-1234';
  it('finds a secret in the body or a header, and never prints it', () => {
    const inBody = echoesNoSecret(response(401, `{"message":"bad ${secret}"}`), [['secret key', secret]], 'R');
    const inHeader = echoesNoSecret(response(401, '', { 'x-debug': `got ${secret}` }), [['secret key', secret]], 'R');
    expect(inBody[0].received).toBe('the secret key in the response body');
    expect(inHeader[0].received).toBe('the secret key in the response header x-debug');
    expect(JSON.stringify([...inBody, ...inHeader])).not.toContain(secret);
  });

  it('passes a clean answer and ignores values too short to mean anything', () => {
    expect(echoesNoSecret(response(200, '{"results":[]}'), [['secret key', secret], ['token', 'abc']], 'R')).toEqual([]);
    expect(echoesNoSecret(response(200, 'abc'), [['token', 'abc']], 'R')).toEqual([]);
  });
});

describe('clockOffsetSeconds', () => {
  it('compares the Date header with the middle of the exchange', () => {
    const sentAt = Date.parse('2026-01-01T00:00:00.000Z');
    expect(clockOffsetSeconds(response(200, '', { date: 'Thu, 01 Jan 2026 00:00:05 GMT' }, 1000), sentAt)).toBe(5);
    expect(clockOffsetSeconds(response(200, '', { date: 'Wed, 31 Dec 2025 23:59:58 GMT' }, 200), sentAt)).toBe(-2);
    expect(clockOffsetSeconds(response(200), sentAt)).toBeUndefined();
  });
});
