/**
 * The workflow table as data (specs/workflows/declaration.yaml), the machine built from a target
 * file's sourceStates, and the loud failures of a malformed table.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ToolError } from '../../../harness/errors.ts';
import { ndfl3Config, requireMachine, requireStateField } from '../../../harness/business/ndfl3/config.ts';
import { workflow } from '../../../harness/business/ndfl3/workflow.ts';
import { loadTarget } from '../../../harness/config/target.ts';
import { sourceStateTable } from '../../../sandbox/services/business/ndfl3/machine.ts';
import { tempDir } from '../../helpers.ts';

const SPEC_3_1: Array<[string, string]> = [
  ['start-review', 'Preprocess'],
  ['start-work', 'PartnerGeneratingReportData'],
  ['resume-work', 'PartnerInProgress'],
  ['ready', 'Ready'],
  ['decline', 'Declined'],
  ['cancel', 'Cancelled'],
  ['acknowledge', 'Acknowledge'],
  ['pending-payment', 'PendingPayment'],
  ['payment-done', 'PaymentDone'],
  ['clarification', 'Clarification'],
];

function target(ndfl3: unknown, kind = 'sandbox') {
  const file = join(tempDir('pc-ndf-'), 'target.yaml');
  writeFileSync(
    file,
    stringify({
      name: 't',
      kind,
      services: { business: { url: 'http://127.0.0.1:1/business', token: 'x', ...(ndfl3 === undefined ? {} : { ndfl3 }) } },
    }),
  );
  return loadTarget(file, {});
}

describe('the declaration table of 3.1', () => {
  it('has the ten states and, per operation, the target state the spec gives', () => {
    const wf = workflow();
    expect(wf.states).toHaveLength(10);
    expect(wf.operations.map((op) => [op.name, op.target])).toEqual(SPEC_3_1);
    for (const op of wf.operations)
      expect(op.operation).toBe(`POST /api/private/ndfl3/requests/{taxRequestId}/declaration/workflow/${op.name}`);
  });

  it('takes the side-effect classes from the business catalog: decline and cancel destructive, payment-done money, the rest write', () => {
    const classes = Object.fromEntries(workflow().operations.map((op) => [op.name, op.sideEffect]));
    expect(classes).toEqual({
      'start-review': 'write',
      'start-work': 'write',
      'resume-work': 'write',
      ready: 'write',
      decline: 'destructive',
      cancel: 'destructive',
      acknowledge: 'write',
      'pending-payment': 'write',
      'payment-done': 'money',
      clarification: 'write',
    });
  });
});

describe('the machine of a target file', () => {
  const machine = () =>
    requireMachine(
      target({ stateField: 'status', sourceStates: sourceStateTable() }),
      ndfl3Config(target({ stateField: 'status', sourceStates: sourceStateTable() })),
    );
  const op = (name: string) => workflow().byName.get(name)!;

  it('expects a repeat in the target state, the allowed pairs, and a refusal for everything else', () => {
    const m = machine();
    expect(m.expectation('Preprocess', op('start-review'))).toBe('repeat');
    expect(m.expectation('Preprocess', op('start-work'))).toBe('allowed');
    expect(m.expectation('Preprocess', op('ready'))).toBe('refused');
    expect(m.refusedFrom('PaymentDone').map((o) => o.name)).toHaveLength(9);
    expect(m.isTerminal('Declined')).toBe(true);
    expect(m.isTerminal('Ready')).toBe(false);
  });

  it('finds the shortest path, and none through calls it may not use', () => {
    const m = machine();
    const all = workflow().operations;
    expect(m.path('Preprocess', (s) => s === 'PaymentDone', all)?.map((o) => o.name)).toEqual([
      'start-work',
      'resume-work',
      'ready',
      'acknowledge',
      'pending-payment',
      'payment-done',
    ]);
    expect(m.path('Clarification', (s) => s === 'Preprocess', all)?.map((o) => o.name)).toEqual(['start-review']);
    expect(m.path('Ready', (s) => s === 'Ready', all)).toEqual([]);
    expect(
      m.path(
        'Preprocess',
        (s) => s === 'Declined',
        all.filter((o) => o.sideEffect !== 'destructive'),
      ),
    ).toBeUndefined();
    expect(m.path('Cancelled', (s) => s === 'Preprocess', all)).toBeUndefined();
  });
});

describe('services.business.ndfl3 of a target file', () => {
  it('defaults: version from the ETag header, no table, provisioning only on kind sandbox', () => {
    const c = ndfl3Config(target({ provisioning: true, requestPool: ['a', 'b'] }));
    expect(c).toMatchObject({
      versionFrom: 'header',
      versionField: 'version',
      provisioningPath: '/_sandbox/ndfl3/requests',
      pool: ['a', 'b'],
    });
    expect(c.machine).toBeUndefined();
    expect(ndfl3Config(target({ provisioning: true }, 'staging')).provisioningPath).toBeUndefined();
  });

  it('skips with the reason when the table or the state field is missing', () => {
    const t = target({});
    const skip = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const noTable = skip(() => requireMachine(t, ndfl3Config(t))) as ToolError;
    expect(noTable.code).toBe('CREDENTIAL_MISSING');
    expect(noTable.message).toContain('sourceStates');
    expect((skip(() => requireStateField(t, ndfl3Config(t))) as ToolError).message).toContain('stateField');
  });

  it.each([
    [{ sourceStates: { 'start-work': ['Preprocess'] } }, 'sourceStates.start-review'],
    [{ sourceStates: { ...sourceStateTable(), approve: [] } }, 'sourceStates.approve'],
    [{ sourceStates: { ...sourceStateTable(), ready: ['InReview'] } }, 'sourceStates.ready'],
    [{ versionFrom: 'cookie' }, 'versionFrom'],
    [{ requestPool: 'abc' }, 'requestPool'],
    [{ provisioning: 'sandbox/x' }, 'provisioning'],
  ])('a malformed value fails loudly, naming the key (%j)', (ndfl3, key) => {
    expect(() => ndfl3Config(target(ndfl3))).toThrow(key);
  });
});
