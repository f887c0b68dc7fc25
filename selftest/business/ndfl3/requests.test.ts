/**
 * Where the 3-NDFL tests get their requests, against a real sandbox on loopback: a pool shared out
 * among the test files, walks along the configured table starting from the state as read, the safety
 * gate keeping a staging target's requests out of destructive states, provisioning on kind sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../harness/errors.ts';
import type { RequestSpec } from '../../../harness/request/http.ts';
import { inState, POOL_USERS, RequestSource } from '../../../harness/business/ndfl3/requests.ts';
import { workflow } from '../../../harness/business/ndfl3/workflow.ts';
import { landedIn } from '../../../harness/business/ndfl3/checks.ts';
import { SetupError } from '../../../harness/business/ndfl3/state.ts';
import { rootCauseOf } from '../../../harness/report/root-cause.ts';
import { cannedResponse } from '../../helpers.ts';
import type { RunningSandbox } from '../../../sandbox/server.ts';
import { apiOf, sandbox, targetOf } from './_sandbox.ts';

let running: RunningSandbox;
beforeAll(async () => {
  running = await sandbox();
});
afterAll(() => running.close());

/** An API over a staging-kind copy of the sandbox's target (no provisioning), counting what it sends. */
function staging() {
  const api = apiOf(targetOf(running, (doc) => (doc.kind = 'staging')));
  const sent: string[] = [];
  const send = api.client.send.bind(api.client);
  api.client.send = (spec: RequestSpec) => {
    sent.push(spec.operation.replace('/api/private/ndfl3/requests/{taxRequestId}', '…'));
    return send(spec);
  };
  return { api, sent };
}

describe('RequestSource on a pool (kind staging)', () => {
  it('shares the pool out among the test files', () => {
    const { api } = staging();
    const pool = api.config.pool;
    expect(pool).toHaveLength(10);
    const shares = POOL_USERS.map((user) => new RequestSource(api, user)).map((s) =>
      (s as unknown as { idle: Array<{ id: string }> }).idle.map((e) => e.id),
    );
    expect(shares.flat().sort()).toEqual([...pool].sort());
    expect(new Set(shares.flat()).size).toBe(pool.length);
  });

  it('reads a pool request, walks it along the shortest path reading each step back, and continues from what it knows', async () => {
    const { api, sent } = staging();
    const source = new RequestSource(api, 'transitions');
    const h = await source.acquire(inState('Ready'));
    expect(h.state).toBe('Ready');
    expect(sent).toEqual([
      'GET …',
      'POST …/declaration/workflow/start-work',
      'GET …',
      'POST …/declaration/workflow/resume-work',
      'GET …',
      'POST …/declaration/workflow/ready',
      'GET …',
    ]);
    source.release(h, true);
    sent.length = 0;
    const again = await source.acquire(inState('Acknowledge'));
    expect(again.id).toBe(h.id);
    expect(sent).toEqual(['POST …/declaration/workflow/acknowledge', 'GET …']);
    source.release(again, true);
  });

  it('starts from the state as read when the request moved behind its back', async () => {
    const { api } = staging();
    const source = new RequestSource(api, 'refusals');
    const h = await source.acquire(inState('PartnerGeneratingReportData'));
    const snap = await api.read(h.id);
    await api.transition(h.id, workflow().byName.get('clarification')!, snap.version!);
    source.release(h);
    const again = await source.acquire(inState('Preprocess'));
    expect(again).toMatchObject({ id: h.id, state: 'Preprocess' });
  });

  it('does not walk through a call the safety gate refuses, and says so', async () => {
    const { api, sent } = staging();
    const source = new RequestSource(api, 'model');
    const error = await source.acquire(inState('Declined')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('SAFETY_REFUSED');
    expect((error as ToolError).message).toContain('safety gate');
    expect(sent.filter((s) => s.includes('workflow'))).toEqual([]);
  });
});

describe('RequestSource on kind sandbox', () => {
  it('provisions fresh requests, and reuses a known one that is closer', async () => {
    const api = apiOf(targetOf(running));
    const source = new RequestSource(api, 'data');
    const first = await source.acquire(inState('Preprocess'), { fresh: true });
    expect(source.provisioned).toBe(1);
    expect(api.config.pool).not.toContain(first.id);
    source.release(first, true);
    const same = await source.acquire(inState('Preprocess'));
    expect(same.id).toBe(first.id);
    expect(source.provisioned).toBe(1);
  });
});

describe('a walk that meets a wrong transition', () => {
  it("fails NDF-WF-001 by the call, as NDF-WF-001's own test does, whichever path met it", async () => {
    const faulty = await sandbox(['ndf-ready-lands-in-acknowledge']);
    try {
      const api = apiOf(targetOf(faulty));
      const ready = workflow().byName.get('ready')!;
      const keyOf = (error: unknown) => {
        expect(error).toBeInstanceOf(SetupError);
        return rootCauseOf((error as SetupError).failures, { requirement: 'X', words: '' }, (s) => s);
      };
      const source = new RequestSource(api, 'transitions');
      const long = keyOf(await source.acquire(inState('Ready'), { fresh: true }).catch((e: unknown) => e));
      const near = await source.acquire(inState('PartnerInProgress'), { fresh: true });
      const short = keyOf(await source.walk(near, inState('Ready')).catch((e: unknown) => e));
      expect(long.requirement).toBe('NDF-WF-001');
      expect(long.about).toContain('GET reads state Ready after ready');
      expect(short.key).toBe(long.key);
      const own = landedIn('NDF-WF-001', ready, 'PartnerInProgress', cannedResponse(200), {
        response: cannedResponse(200),
        state: 'Acknowledge',
      });
      expect(rootCauseOf(own, { requirement: 'X', words: '' }, (s) => s).key).toBe(long.key);
    } finally {
      await faulty.close();
    }
  });
});
