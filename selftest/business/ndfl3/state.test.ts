/**
 * The state a 3-NDFL test reads back and takes as given: a read without one of 3.1's ten states is
 * NDF-REQ-001's failure wherever it happens, under NDF-REQ-001's own test or as another test's
 * precondition, with one and the same root cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedResponse } from '../../helpers.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { rootCauseOf } from '../../../harness/report/root-cause.ts';
import { SetupError, stateReadFailures } from '../../../harness/business/ndfl3/state.ts';
import { inState, RequestSource } from '../../../harness/business/ndfl3/requests.ts';
import { workflow } from '../../../harness/business/ndfl3/workflow.ts';
import type { RunningSandbox } from '../../../sandbox/server.ts';
import { apiOf, sandbox, targetOf } from './_sandbox.ts';

const res = (status: number, body?: unknown, contentType = 'application/json'): CapturedResponse =>
  cannedResponse(status, body, { 'content-type': contentType });

describe('stateReadFailures', () => {
  it('passes each of the ten states of 3.1 at the configured field', () => {
    for (const state of workflow().states) expect(stateReadFailures(res(200, { status: state }), 'status')).toEqual([]);
    expect(stateReadFailures(res(200, { request: { state: 'Ready' } }), 'request.state')).toEqual([]);
  });

  it('fails a state 3.1 does not name, naming NDF-REQ-001 at the field, with the value received', () => {
    const [only, ...rest] = stateReadFailures(res(200, { status: 'InReview' }), 'status');
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ requirement: 'NDF-REQ-001', at: '/status', received: '"InReview"' });
    expect(only.expected).toContain('Preprocess');
    expect(stateReadFailures(res(200, { status: 3 }), 'status')[0].received).toBe('3');
    expect(stateReadFailures(res(200, { request: { state: 'ready' } }), 'request.state')[0].at).toBe('/request/state');
  });

  it('fails a missing state, a body that is not JSON, and a read that is not a 200', () => {
    expect(stateReadFailures(res(200, {}), 'status')[0].received).toBe('none');
    expect(stateReadFailures(res(200, '<html></html>', 'text/html'), 'status')[0].received).toBe('no JSON body');
    expect(stateReadFailures(res(500, { status: 'Ready' }), 'status')[0]).toMatchObject({
      requirement: 'NDF-REQ-001',
      expected: 'status 200',
      received: 'status 500',
    });
  });

  it("gives the requirement's own test and a precondition the same root cause, whatever state was read", () => {
    const key = (state: string) =>
      rootCauseOf(stateReadFailures(res(200, { status: state }), 'status'), { requirement: 'X', words: '' }, (s) => s).key;
    expect(key('InReview')).toBe(key('Archived'));
  });
});

describe('reading the state back from the sandbox', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await sandbox(['ndf-state-outside-table']);
  });
  afterAll(() => running.close());

  it("throws NDF-REQ-001's failure, saying what the read was for, where the state is none of 3.1's", async () => {
    const api = apiOf(targetOf(running));
    const { id } = await api.provision();
    const error = await api.read(id, 'reading the fresh request').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).failures.map((f) => f.requirement)).toEqual(['NDF-REQ-001']);
    expect((error as SetupError).message).toContain('reading the fresh request');
    expect((error as SetupError).message).toContain('"InReview"');
    expect((await api.snapshot(id)).state).toBe('InReview');
  });

  it('leaves a state of 3.1 to the caller to judge', async () => {
    const api = apiOf(targetOf(running));
    const source = new RequestSource(api, 'transitions');
    const h = await source.acquire(inState('PartnerGeneratingReportData'), { fresh: true });
    expect((await api.read(h.id)).state).toBe('PartnerGeneratingReportData');
  });
});
