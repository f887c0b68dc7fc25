/**
 * Faults as modifiers (sandbox/faults/modifiers.ts): every insurance, invest, speech and identity fault
 * is an edit around its handler, one that names a rule the handler lacks cannot start, a rule that
 * remembers keeps its memory per sandbox, and the edits change only what they mean to.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Incoming } from '../../sandbox/exchange.ts';
import { editJsonBody, isModifier, modifiersOf, onRefusal, type ModifierFault } from '../../sandbox/faults/modifiers.ts';
import { FaultSet, type Variation } from '../../sandbox/faults/types.ts';
import { credentials as insuranceCredentials } from '../../sandbox/services/insurance/index.ts';
import { insuranceFaults } from '../../sandbox/services/insurance/faults.ts';
import {
  RULES as SURRENDER_RULES,
  SETTINGS as SURRENDER_SETTINGS,
  surrenderHandler,
  type SurrenderShape,
} from '../../sandbox/services/insurance/handler.ts';
import { PARTNER_SCOPES } from '../../sandbox/services/insurance/access.ts';
import { ACCOUNT_IDS, developmentAccounts } from '../../sandbox/services/invest/accounts.ts';
import { investFaults } from '../../sandbox/services/invest/faults.ts';
import {
  portfolioHandler,
  RULES as PORTFOLIO_RULES,
  SETTINGS as PORTFOLIO_SETTINGS,
  type PortfolioShape,
} from '../../sandbox/services/invest/handler.ts';
import { amountOf, type Pair } from '../../sandbox/services/invest/money.ts';
import { eachPair } from '../../sandbox/services/invest/portfolio-edits.ts';
import { identityFaults } from '../../sandbox/services/identity/faults.ts';
import { RULES as USERINFO_RULES, type UserinfoShape } from '../../sandbox/services/identity/handler.ts';
import { NDFL3_MODIFIER_FAULTS, ndfl3Modifiers } from '../../sandbox/services/business/ndfl3/fault-modifiers.ts';
import { RUNTIME_MODIFIER_FAULTS, runtimeModifiers } from '../../sandbox/services/business/runtime/fault-modifiers.ts';
import type { SpeechCall } from '../../sandbox/services/speech/call.ts';
import { AUDIENCE, sha256hex } from '../../sandbox/services/speech/claim-rules.ts';
import { speechFaults } from '../../sandbox/services/speech/faults.ts';
import { RULES as SPEECH_RULES, speechHandler, type SpeechShape } from '../../sandbox/services/speech/handler.ts';

const on = (catalog: readonly Variation[], ...ids: string[]) => new FaultSet(new Map(catalog.map((f) => [f.id, f])), ids);

const post = (body: unknown, token: string, requestId = '6f1c9a52-7a43-4c52-9d0e-2b8f0a1d3e11'): Incoming => ({
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': requestId },
  contentType: 'application/json',
  text: JSON.stringify(body),
  ip: '127.0.0.1',
});

const item = { calcPeriodFrom: '2025-01-01', calcPeriodTo: '2025-12-31', currency: 'RUB', surrenderPercent: 12.5, surrenderValue: 1000.55 };
const surrender = (contractId: string) => ({
  contractId,
  productType: 'investment',
  updateDate: '2025-06-01T10:00:00+03:00',
  surrender: [item, { ...item, currency: 'DKK' }],
});

function insurance(...ids: string[]) {
  const modifiers = modifiersOf<SurrenderShape>(insuranceFaults, on(insuranceFaults, ...ids), {
    checks: SURRENDER_RULES,
    settings: SURRENDER_SETTINGS,
  });
  const tokens = new Map([[insuranceCredentials.token, PARTNER_SCOPES]]);
  const handle = surrenderHandler({ checks: modifiers.checks, settings: modifiers.settings, tokens, providerName: 'P' });
  return (request: Incoming) => {
    const edited = modifiers.request(request);
    return modifiers.answer(handle(edited), edited);
  };
}

const SPEECH_KEY = Buffer.alloc(32, 7);

function speech(...ids: string[]) {
  const modifiers = modifiersOf<SpeechShape>(speechFaults, on(speechFaults, ...ids), { checks: SPEECH_RULES, settings: {} });
  const handle = speechHandler({ checks: modifiers.checks, keys: new Map([['kid-1', SPEECH_KEY]]) });
  return (call: SpeechCall) => modifiers.answer(handle(modifiers.request(call)), call);
}

/** A recognize call without a body, its token signed with SPEECH_KEY, or with `signature` in its place. */
function speechCall(claims: Record<string, unknown>, signature?: string): SpeechCall {
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${segment({ alg: 'HS256', typ: 'JWT', kid: 'kid-1' })}.${segment(claims)}`;
  const token = `${input}.${signature ?? createHmac('sha256', SPEECH_KEY).update(input).digest('base64url')}`;
  return { kind: 'recognize', method: 'GET', headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0), tooLarge: false };
}

function invest(...ids: string[]) {
  const modifiers = modifiersOf<PortfolioShape>(investFaults, on(investFaults, ...ids), {
    checks: PORTFOLIO_RULES,
    settings: PORTFOLIO_SETTINGS,
  });
  const tokens = { main: 'main', other: 'other', burst: 'burst' };
  const handle = portfolioHandler({
    checks: modifiers.checks,
    settings: modifiers.settings,
    tokens: Object.values(tokens),
    accounts: developmentAccounts(tokens),
  });
  return (request: Incoming) => modifiers.answer(handle(modifiers.request(request)), request);
}

describe('faults as modifiers', () => {
  it('every insurance, invest, speech and identity fault is an edit around its handler, and each starts alone', () => {
    for (const fault of [...insuranceFaults, ...investFaults, ...speechFaults, ...identityFaults])
      expect(isModifier(fault), fault.id).toBe(true);
    for (const fault of insuranceFaults) expect(() => insurance(fault.id), fault.id).not.toThrow();
    for (const fault of investFaults) expect(() => invest(fault.id), fault.id).not.toThrow();
    for (const fault of speechFaults) expect(() => speech(fault.id), fault.id).not.toThrow();
    for (const fault of identityFaults) {
      expect(
        () => modifiersOf<UserinfoShape>(identityFaults, on(identityFaults, fault.id), { checks: USERINFO_RULES, settings: {} }),
        fault.id,
      ).not.toThrow();
    }
  });

  it('every business runtime and 3-NDFL fault is an edit around its handler, and each starts alone', () => {
    for (const fault of [...RUNTIME_MODIFIER_FAULTS, ...NDFL3_MODIFIER_FAULTS]) expect(isModifier(fault), fault.id).toBe(true);
    for (const fault of RUNTIME_MODIFIER_FAULTS)
      expect(() => runtimeModifiers(on(RUNTIME_MODIFIER_FAULTS, fault.id)), fault.id).not.toThrow();
    for (const fault of NDFL3_MODIFIER_FAULTS) expect(() => ndfl3Modifiers(on(NDFL3_MODIFIER_FAULTS, fault.id)), fault.id).not.toThrow();
  });

  it('a rule that remembers keeps its memory per sandbox: the verification cache keyed by the signature', () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { exp: now + 300, aud: AUDIENCE, 'x-content-sha256': sha256hex('') };
    const valid = speechCall(claims);
    const knownSignature = (valid.headers.authorization as string).split('.')[2];
    const forged = speechCall({ ...claims, sub: 'someone else' }, knownSignature);
    expect(speech()(valid).status).toBe(200);
    expect([speech()(forged).status, speech()(forged).refusedBy]).toEqual([401, 'signature']);

    const cached = speech('spe-verify-cache-by-signature');
    expect(cached(forged).status).toBe(401);
    expect(cached(valid).status).toBe(200);
    expect(cached(forged).status).toBe(200);
    // Another sandbox with the same fault has not seen the signature.
    expect(speech('spe-verify-cache-by-signature')(forged).status).toBe(401);
  });

  it('a fault that names a rule the handler lacks cannot start', () => {
    const typo = {
      id: 'ins-typo',
      area: 'insurance',
      catches: [],
      description: 'a misspelt rule',
      checks: { 'contractId.maxlength': () => undefined },
    } as unknown as ModifierFault<SurrenderShape>;
    expect(() =>
      modifiersOf<SurrenderShape>([typo], on([typo], 'ins-typo'), { checks: SURRENDER_RULES, settings: SURRENDER_SETTINGS }),
    ).toThrow(/contractId\.maxlength/);
    const picky = { ...typo, checks: undefined, answer: onRefusal('auth.unknown', (a) => a) } as unknown as ModifierFault<SurrenderShape>;
    expect(() =>
      modifiersOf<SurrenderShape>([picky], on([picky], 'ins-typo'), { checks: SURRENDER_RULES, settings: SURRENDER_SETTINGS }),
    ).toThrow(/auth\.unknown/);
  });

  it('a JSON body edit rewrites only a body it changed', () => {
    const coerce = editJsonBody<Incoming>((body) => {
      if (typeof body.n === 'number') body.n = String(body.n);
    });
    const untouched = { ...post({}, 't'), text: '{"n":"1","big":1e400}' };
    expect(coerce(untouched)).toBe(untouched);
    expect(coerce({ ...untouched, text: '{"n":1}' }).text).toBe('{"n":"1"}');
    expect(coerce({ ...untouched, text: '{"n":' }).text).toBe('{"n":');
  });

  it('the clean surrender handler stores and answers 201; an answer edit changes the answer, not what the handler keeps', () => {
    const clean = insurance()(post(surrender('C-1'), insuranceCredentials.token));
    expect(clean.status).toBe(201);
    const records = (clean.body as { surrender: Array<{ id: number }> }).surrender;
    expect(records.map((r) => r.id)).toEqual([1, 2]);

    const send = insurance('ins-record-ids-repeat', 'ins-request-id-replays');
    const first = send(post(surrender('C-2'), insuranceCredentials.token));
    expect((first.body as { surrender: Array<{ id: number }> }).surrender.map((r) => r.id)).toEqual([1, 1]);
    // The replay remembers the edited answer; a refused caller is never replayed.
    expect(send(post(surrender('C-3'), insuranceCredentials.token)).body).toEqual(first.body);
    expect(send(post(surrender('C-3'), 'unknown-token')).status).toBe(401);
  });

  it('a replaced rule refuses with its own name, an answer edit picks the refusals of one rule', () => {
    const send = insurance('ins-contract-id-max-127');
    const refused = send(post(surrender('x'.repeat(128)), insuranceCredentials.token));
    expect([refused.status, refused.refusedBy]).toEqual([400, 'contractId.maxLength']);
    expect(insurance('ins-bad-token-403')(post(surrender('C-4'), 'unknown-token')).status).toBe(403);
    expect(insurance('ins-bad-token-403')({ ...post(surrender('C-4'), 'x'), headers: {} }).status).toBe(401);
  });

  it('the value faults write the same amounts, only not canonically', () => {
    const request = post({ accountId: ACCOUNT_IDS.main, currency: 'USD' }, 'main');
    const amounts = (answer: { body?: unknown }) => {
      const out: bigint[] = [];
      eachPair(answer.body, (pair: Pair) => out.push(amountOf(pair)));
      return out;
    };
    const clean = invest()(request);
    expect(clean.status).toBe(200);
    for (const id of ['inv-nano-overflow', 'inv-opposite-signs']) {
      const edited = invest(id)(request);
      expect(amounts(edited), id).toEqual(amounts(clean));
      expect(JSON.stringify(edited.body), id).not.toBe(JSON.stringify(clean.body));
    }
  });
});
