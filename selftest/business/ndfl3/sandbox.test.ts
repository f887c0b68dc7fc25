/**
 * The sandbox's 3-NDFL part as documented: its source-state table (README and target file agree),
 * the order of its checks on a workflow call, its faults, and the suite's payloads fitting the
 * sandbox's own document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NDFL3 } from '../../../harness/business/ndfl3/api.ts';
import { workflow } from '../../../harness/business/ndfl3/workflow.ts';
import { DocumentSchemas } from '../../../harness/business/openapi/json-schema.ts';
import { locateRoot } from '../../../harness/business/openapi/locate.ts';
import { OperationIndex } from '../../../harness/business/openapi/paths.ts';
import { requirements } from '../../../harness/spec/requirements.ts';
import { chatText, declarationEdit, documentData, taxFormUpload } from '../../../generators/business/ndfl3.ts';
import { faults } from '../../../sandbox/services/business/ndfl3/index.ts';
import { sourceStateTable, WORKFLOW } from '../../../sandbox/services/business/ndfl3/machine.ts';
import type { RunningSandbox } from '../../../sandbox/server.ts';
import { ROOT } from '../../helpers.ts';
import { apiOf, sandbox, targetOf } from './_sandbox.ts';

const DIR = join(ROOT, 'sandbox', 'services', 'business');

describe('the sandbox table', () => {
  it('is the one its README documents and its target file writes', async () => {
    const readme = readFileSync(join(DIR, 'ndfl3', 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| ([a-z-]+) \| (\w+) \| ([A-Za-z, ]+) \|$/gm)].map((m) => [m[1], m[2], m[3].split(', ')]);
    expect(rows).toEqual(WORKFLOW.map((t) => [t.operation, t.target, t.from]));
    const running = await sandbox();
    try {
      const section = (running.targetDocument() as { services: { business: { ndfl3: Record<string, unknown> } } }).services.business.ndfl3;
      expect(section).toMatchObject({ provisioning: true, stateField: 'status', versionFrom: 'header', sourceStates: sourceStateTable() });
      expect(section.requestPool).toHaveLength(10);
    } finally {
      await running.close();
    }
  });

  it('has the target states of 3.1 and reaches every state from a new request', () => {
    expect(WORKFLOW.map((t) => [t.operation, t.target])).toEqual(workflow().operations.map((op) => [op.name, op.target]));
    const reached = new Set(['Preprocess']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of WORKFLOW)
        if (t.from.some((s) => reached.has(s)) && !reached.has(t.target)) grew = reached.add(t.target) !== undefined;
    }
    expect([...reached].sort()).toEqual([...workflow().states].sort());
  });
});

describe('a workflow call on the sandbox', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await sandbox();
  });
  afterAll(() => running.close());
  const op = (name: string) => workflow().byName.get(name)!;

  it('answers a repeat 200 whatever If-Match carries, a stale version 422, a missing one 400', async () => {
    const api = apiOf(targetOf(running));
    const { id } = await api.provision();
    const v1 = (await api.read(id)).version!;
    const moved = await api.transition(id, op('start-work'), v1);
    expect(moved.status).toBe(200);
    expect(moved.headers.etag).not.toBe(v1);
    expect((await api.transition(id, op('start-work'), v1)).status).toBe(200);
    const stale = await api.transition(id, op('resume-work'), v1);
    expect([stale.status, (stale.json as { errorCode: string }).errorCode]).toEqual([422, 'VERSION_MISMATCH']);
    expect((await api.transition(id, op('resume-work'), null)).status).toBe(400);
    const refused = await api.transition(id, op('ready'), moved.headers.etag);
    expect(refused.json).toMatchObject({
      errorCode: 'TRANSITION_NOT_ALLOWED',
      errorDetails: { currentState: 'PartnerGeneratingReportData', operation: 'ready' },
    });
    expect((await api.read(id)).state).toBe('PartnerGeneratingReportData');
  });
});

describe('the 3-NDFL faults', () => {
  it('are at least 12, each naming known NDF requirements of the business area', () => {
    expect(faults.length).toBeGreaterThanOrEqual(12);
    for (const fault of faults) {
      expect(fault.id).toMatch(/^ndf-/);
      for (const id of fault.catches) expect(requirements().get(id)?.area, `${fault.id} -> ${id}`).toBe('business');
    }
  });
});

describe('the suite payloads and the sandbox document', () => {
  const doc = parse(readFileSync(join(DIR, 'openapi.yaml'), 'utf8')) as Record<string, unknown>;
  const index = new OperationIndex(doc);
  const schemas = new DocumentSchemas(doc);
  const fitsRequest = (operation: string, body: unknown) => {
    const root = locateRoot(index, operation, 'requestBody');
    const validate = schemas.validator((root as { schema: Record<string, unknown> }).schema, 'request');
    return validate(body) ? [] : validate.errors;
  };
  const structure = {
    sections: [
      {
        questions: [
          { questionId: 'a.num', answerType: 'number' },
          { questionId: 'a.choice', answerType: 'choice', options: ['X', 'Y'] },
          { questionId: 'a.text', answerType: 'string' },
          { questionId: 'a.date', answerType: 'date' },
        ],
      },
    ],
  };

  it('fit the request bodies the document describes', () => {
    fc.assert(
      fc.property(declarationEdit(structure), (edit) => {
        expect(fitsRequest(NDFL3.editDeclaration, edit)).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(declarationEdit({}), (edit) => {
        expect(fitsRequest(NDFL3.editDeclaration, edit)).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(chatText(), (text) => {
        expect(fitsRequest(NDFL3.sendChat, { text })).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(documentData(), (body) => {
        expect(fitsRequest(NDFL3.documentData, body)).toEqual([]);
      }),
    );
    expect(fitsRequest(NDFL3.upload, taxFormUpload(2024))).toEqual([]);
  });

  it('carry a fresh marker in every declaration edit', () => {
    const [a, b] = [
      fc.sample(declarationEdit(structure), { seed: 1, numRuns: 1 })[0],
      fc.sample(declarationEdit(structure), { seed: 1, numRuns: 1 })[0],
    ];
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });
});
