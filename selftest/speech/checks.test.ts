/** The speech checks (and the answer checks they share with identity): acceptance and refusal, the leeway ladder, secret echoes, the clock offset. */
import { describe, expect, it } from 'vitest';
import { refused } from '../../harness/checks/answer.ts';
import {
  accepted,
  clockOffsetSeconds,
  echoesNoSecret,
  emptyBodyHashVerdict,
  leewayFigure,
  refusedWith401,
  tokenAcceptance,
} from '../../harness/speech/checks.ts';
import { embeddedBase64urlForms } from '../../harness/speech/token.ts';
import { cannedResponse } from '../helpers.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';

function response(status: number, rawBody = '', headers: Record<string, string> = {}, durationMs = 10): CapturedResponse {
  return cannedResponse(status, rawBody, headers, durationMs);
}

const ladder = (statuses: number[], offsets = [2, 10, 20, 45, 75, 150, 300]) =>
  statuses.map((status, i) => ({ offsetSeconds: offsets[i], status }));

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

describe('refused (shared with identity)', () => {
  it('reads every status but 2xx and 5xx as a refusal', () => {
    for (const status of [400, 401, 403, 404, 415]) expect(refused(response(status), 'R')).toEqual([]);
    expect(refused(response(200), 'R')[0].received).toBe('accepted with 200');
    expect(refused(response(503), 'R')[0].received).toBe('server error 503');
  });
});

describe('accepted / refusedWith401', () => {
  it('accepts any 2xx with a JSON body or none, and names a refusal or a server error', () => {
    expect(accepted(response(200, '{"results":[]}', JSON_TYPE), 'R')).toEqual([]);
    expect(accepted(response(204), 'R')).toEqual([]);
    expect(accepted(response(200, '{}', { 'content-type': 'text/html' }), 'R')).toHaveLength(1);
    expect(accepted(response(401), 'R')[0]).toMatchObject({ requirement: 'R', expected: 'accepted (2xx)', received: 'refused with 401' });
    expect(accepted(response(502), 'R')[0].received).toBe('server error 502');
  });

  it('holds the 401 policy to exactly 401, with a JSON body if any', () => {
    expect(refusedWith401(response(401), 'R', 'row')).toEqual([]);
    expect(refusedWith401(response(401, '<h1>401</h1>', { 'content-type': 'text/html' }), 'R', 'row')).toHaveLength(2);
    expect(refusedWith401(response(403), 'R', 'row')[0]).toMatchObject({ expected: '401 for row', received: 'status 403' });
  });
});

describe('tokenAcceptance', () => {
  const refusals = (none: number, wrongSecret = none) => ({ none: response(none), wrongSecret: response(wrongSecret) });

  it('takes a 2xx (a body, if any, JSON) as accepted, from a target that refuses both bad tokens', () => {
    expect(tokenAcceptance(response(200, '{"results":[]}', JSON_TYPE), refusals(401), 'R')).toMatchObject({
      failures: [],
      seen: 'accepted with 200',
    });
    expect(tokenAcceptance(response(200, '<p>', { 'content-type': 'text/html' }), refusals(401), 'R').failures.length).toBeGreaterThan(0);
  });

  it('takes a status neither bad token got as a token that passed (a 400 about the audio)', () => {
    const v = tokenAcceptance(response(400, 'no audio', { 'content-type': 'text/plain' }), refusals(401, 403), 'R');
    expect(v.failures).toEqual([]);
    expect(v.noEvidence).toBeUndefined();
    expect(v.seen).toMatch(/^answered 400, which neither bad token got/);
  });

  it('fails a 401 or 403 that a bad token got too: the token was refused as they were', () => {
    for (const status of [401, 403]) {
      const v = tokenAcceptance(response(status), refusals(401, 403), 'R');
      expect(v.failures[0]).toMatchObject({ expected: 'accepted (the token not refused)' });
      expect(v.failures[0].received).toMatch(new RegExp(`^refused with ${status}, as the bad tokens were`));
    }
  });

  it('fails a 401 or 403 that no bad token got: a valid token answered 403 while bad ones get 401 is refused too', () => {
    const v = tokenAcceptance(response(403), refusals(401), 'R');
    expect(v.failures[0].received).toMatch(/^refused with 403, a refusal of a credential \(the same call without a token was answered 401/);
    expect(v.seen).toBeUndefined();
    expect(tokenAcceptance(response(401), refusals(400), 'R').failures).toHaveLength(1);
  });

  it('finds no evidence in another status the bad tokens got too (a target that judges the body first)', () => {
    expect(tokenAcceptance(response(400), refusals(400), 'R').noEvidence).toMatch(/may have refused the call's audio before its token/);
    expect(tokenAcceptance(response(404), refusals(404), 'R').failures).toEqual([]);
  });

  it('finds no evidence when a bad token is accepted too, and fails a 5xx at once', () => {
    expect(tokenAcceptance(response(200), refusals(200, 401), 'R').noEvidence).toMatch(/without any token was accepted too/);
    expect(tokenAcceptance(response(200), refusals(401, 200), 'R').noEvidence).toMatch(/signed with another secret was accepted too/);
    expect(tokenAcceptance(response(503), refusals(200), 'R').failures[0].received).toBe('server error 503');
  });
});

describe('emptyBodyHashVerdict', () => {
  it('passes when the target tells the empty-string hash from a wrong one, and fails a 401/403 or a 5xx', () => {
    expect(emptyBodyHashVerdict(response(200), response(401), 'R')).toEqual({ failures: [] });
    expect(emptyBodyHashVerdict(response(400), response(401), 'R')).toEqual({ failures: [] });
    expect(emptyBodyHashVerdict(response(401), response(200), 'R').failures[0].received).toBe('refused with 401');
    expect(emptyBodyHashVerdict(response(500), response(401), 'R').failures[0].received).toBe('server error 500');
  });

  it('finds no evidence when both tokens are answered alike', () => {
    for (const status of [200, 404, 400])
      expect(emptyBodyHashVerdict(response(status), response(status), 'R').noEvidence).toMatch(/did not tell the two tokens apart/);
  });
});

describe('leewayFigure', () => {
  it('reads a single threshold as the leeway, without failing', () => {
    const f = leewayFigure('exp', ladder([200, 200, 200, 401, 401, 401, 401]), 'R');
    expect(f).toMatchObject({ acceptedUpTo: 20, refusedFrom: 45, failures: [] });
    expect(f.text).toBe('exp: accepted 20 s after, refused 45 s after (leeway between 20 and 45 s)');
  });

  it('reports a leeway beyond the ladder, and none at all, without failing', () => {
    expect(leewayFigure('nbf', ladder([200, 200, 200, 200, 200, 200, 200]), 'R')).toMatchObject({
      failures: [],
      text: 'nbf: accepted up to at least 300 s before (no probe refused)',
    });
    expect(leewayFigure('iat', ladder([403, 403, 403, 403, 403, 403, 403]), 'R')).toMatchObject({
      failures: [],
      text: 'iat: refused from 2 s before (leeway under 2 s)',
    });
  });

  it('counts a probe as accepted when the suite says so, whatever its status (a target that refuses the audio)', () => {
    const probes = ladder([400, 400, 401, 401, 401, 401, 401]).map((p) => ({ ...p, accepted: p.status === 400 }));
    expect(leewayFigure('exp', probes, 'R')).toMatchObject({ acceptedUpTo: 10, refusedFrom: 20, failures: [] });
  });

  it('fails when a larger offset is accepted after a smaller one was refused', () => {
    const f = leewayFigure('exp', ladder([200, 401, 200, 401, 401, 401, 401]), 'R');
    expect(f.failures).toHaveLength(1);
    expect(f.failures[0].received).toMatch(/refused at 10 s but accepted at 20 s/);
  });

  it('fails on a server error, and reads any other non-2xx as a refusal', () => {
    const f = leewayFigure('exp', ladder([200, 200, 500, 401, 400, 401, 401]), 'R');
    expect(f.failures.map((x) => x.received)).toEqual(['status 500']);
    expect(leewayFigure('exp', ladder([200, 200, 200, 400, 400, 400, 400]), 'R')).toMatchObject({
      acceptedUpTo: 20,
      refusedFrom: 45,
      failures: [],
    });
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
    expect(
      echoesNoSecret(
        response(200, '{"results":[]}'),
        [
          ['secret key', secret],
          ['token', 'abc'],
        ],
        'R',
      ),
    ).toEqual([]);
    expect(echoesNoSecret(response(200, 'abc'), [['token', 'abc']], 'R')).toEqual([]);
  });
});

describe('embeddedBase64urlForms', () => {
  it('finds the API key inside a base64url token header, at any alignment, and skips values too short', () => {
    const key = 'PCMARKAPI-0123456789abcdef';
    const forms = embeddedBase64urlForms(key);
    for (const prefix of ['{"alg":"HS256","typ":"JWT","kid":"', '{"kid":"', '{"kid":"x']) {
      const header = Buffer.from(`${prefix}${key}"}`).toString('base64url');
      expect(
        forms.some((f) => header.includes(f)),
        prefix,
      ).toBe(true);
    }
    expect(embeddedBase64urlForms('short')).toEqual([]);
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
