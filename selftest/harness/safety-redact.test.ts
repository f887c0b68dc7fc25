import { describe, expect, it } from 'vitest';
import { Redactor } from '../../harness/secrets/redact.ts';
import { assertBurstAllowed, refusal } from '../../harness/request/safety.ts';

const target = (
  kind: 'sandbox' | 'staging' | 'production',
  safety: Partial<{ allowDestructive: boolean | string[]; allowMoney: boolean | string[]; allowBursts: boolean }> = {},
) => ({
  name: 't',
  kind,
  safety: { allowDestructive: false, allowMoney: false, allowBursts: false, ...safety },
});

describe('safety gate', () => {
  it('allows everything on the sandbox', () => {
    for (const effect of ['read', 'write', 'destructive', 'money'] as const)
      expect(refusal(target('sandbox'), effect, 'POST /x')).toBeUndefined();
  });
  it('allows read and write on staging, destructive and money only by name', () => {
    expect(refusal(target('staging'), 'write', 'POST /x')).toBeUndefined();
    expect(refusal(target('staging'), 'money', 'POST /pay')).toContain('safety.allowMoney');
    expect(refusal(target('staging', { allowMoney: ['POST /pay'] }), 'money', 'POST /pay')).toBeUndefined();
    expect(refusal(target('staging', { allowMoney: ['POST /pay'] }), 'money', 'POST /other')).toBeDefined();
    expect(refusal(target('staging', { allowDestructive: true }), 'destructive', 'DELETE /x')).toBeUndefined();
  });
  it('allows only read on production', () => {
    expect(refusal(target('production'), 'read', 'GET /x')).toBeUndefined();
    expect(refusal(target('production', { allowMoney: true }), 'money', 'POST /pay')).toContain('production');
    expect(refusal(target('production'), 'write', 'POST /x')).toContain('read only');
  });
  it('sends bursts to loopback only, unless allowed', () => {
    expect(() => assertBurstAllowed(target('staging'), 'http://127.0.0.1:9/x')).not.toThrow();
    expect(() => assertBurstAllowed(target('staging'), 'https://staging.bank.example/x')).toThrow(/allowBursts/);
    expect(() => assertBurstAllowed(target('staging', { allowBursts: true }), 'https://staging.bank.example/x')).not.toThrow();
  });
});

describe('redactor', () => {
  it('masks registered secrets, their encodings, JWTs and Authorization values', () => {
    const r = new Redactor();
    r.register('s3cr3t/value', 'short', 'abc');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const text = `token s3cr3t/value form s3cr3t%2Fvalue b64 ${Buffer.from('s3cr3t/value').toString('base64')} jwt ${jwt} -H 'authorization: Bearer opaque-123' abc`;
    const out = r.redact(text);
    for (const leaked of ['s3cr3t/value', 's3cr3t%2Fvalue', Buffer.from('s3cr3t/value').toString('base64'), jwt, 'opaque-123', 'short'])
      expect(out).not.toContain(leaked);
    expect(out).toContain('abc');
  });
});
