/**
 * Beneficiaries of the nominal account (spec 2.6) at runtime: each document type with its own
 * required fields, number and date always; legal entities with a LEGAL_ENTITY_ADDRESS; citizenship
 * for resident individuals and sole proprietors; phoneNumber or email; kio without inn; birthPlace
 * optional. Every case is a beneficiary that meets every rule, with one broken, judged next to its
 * control: the same beneficiary, unbroken, accepted. And the vendor's Idempotency-Key: a repeated
 * create makes one beneficiary.
 */
import { randomUUID } from 'node:crypto';
import { failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import type { GeneratedRequest } from '../../../harness/business/runtime/request.ts';
import {
  beneficiary,
  BENEFICIARY_CREATE,
  beneficiaryRequest,
  document,
  DOCUMENT_TYPES,
  OWN_FIELD,
} from '../../../harness/business/rules/beneficiaries.ts';
import {
  accepted,
  expectRuleAccepted,
  expectRuleRefused,
  fitsDocument,
  ruleControl,
  submit,
} from '../../../harness/business/rules/rules.ts';
import { isJsonObject, type JsonObject } from '../../../harness/text/json.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();

const clean = (node: JsonObject): JsonObject => JSON.parse(JSON.stringify(node)) as JsonObject;

rulesBlock(
  plan,
  'business rules: beneficiaries (2.6)',
  [
    'BUS-BEN-001',
    'BUS-BEN-002',
    'BUS-BEN-003',
    'BUS-BEN-004',
    'BUS-BEN-005',
    'BUS-BEN-006',
    'BUS-BEN-007',
    'BUS-BEN-008',
    'BUS-BEN-009',
    'BUS-BEN-010',
  ],
  [BENEFICIARY_CREATE],
  ([create]) => {
    let made = 0;
    /** The create request with this body: generated parameters (a fresh Idempotency-Key), the body as given. */
    const request = (body: JsonObject): GeneratedRequest => beneficiaryRequest(create, made++, clean(body));

    /**
     * Sends a beneficiary the rules accept; the example must also be valid against the served document.
     * A refusal counts next to the control, a legal entity accepted: one refused too says nothing of this rule.
     */
    async function expectAccepted(body: JsonObject, what: string, t: RequirementContext) {
      const sent = request(body);
      fitsDocument(create, sent, what);
      const res = await submit(create, sent, what);
      await expectRuleAccepted(
        t,
        create,
        res,
        () => ruleControl(t, create, 'a UL_RESIDENT beneficiary', () => request(beneficiary('UL_RESIDENT'))),
        what,
      );
    }

    /** Sends the broken beneficiary; the refusal counts next to `control` (its unbroken form, named by `controlKey`) accepted. */
    async function expectNotCreated(t: RequirementContext, body: JsonObject, what: string, controlKey: string, control: () => JsonObject) {
      const res = await submit(create, request(body), what);
      await expectRuleRefused(t, res, () => ruleControl(t, create, controlKey, () => request(control())), what);
    }

    /**
     * A person with a document of the type, last in the list: alone where it is the passport the person
     * carries anyway, else beside it. A VISA, a CONTRACT or a MIGRATION_CARD does not say who someone is,
     * and which documents a beneficiary must hold besides the one named is not in 2.6.
     */
    const withDocument = (type: string): JsonObject => {
      const person = beneficiary(type === 'PASSPORT' || type === 'OFFICIAL_PASSPORT' ? 'FL_RESIDENT' : 'FL_NONRESIDENT');
      const identity = (person.documents as JsonObject[])[0];
      return { ...person, documents: identity.type === type ? [document(type)] : [identity, document(type)] };
    };
    /** The document of the type under test in a body withDocument made. */
    const typed = (body: JsonObject): JsonObject => (body.documents as JsonObject[]).at(-1)!;

    for (const type of DOCUMENT_TYPES) {
      requirementTest('BUS-BEN-001', { row: `a beneficiary with a ${type} document is accepted` }, async (t) => {
        await expectAccepted(
          withDocument(type),
          `a beneficiary with a ${type} (number, date${OWN_FIELD[type] ? `, ${OWN_FIELD[type][0]}` : ''})`,
          t,
        );
      });
    }

    for (const [id, type] of [
      ['BUS-BEN-002', 'PASSPORT'],
      ['BUS-BEN-003', 'DIPLOMATIC_PASSPORT'],
      ['BUS-BEN-004', 'PATENT'],
    ] as const) {
      const [field] = OWN_FIELD[type];
      requirementTest(id, { row: `a ${type} without ${field} is refused` }, async (t) => {
        const body = withDocument(type);
        delete typed(body)[field];
        await expectNotCreated(t, body, `a beneficiary whose ${type} has no ${field}`, `a beneficiary with a ${type}`, () =>
          withDocument(type),
        );
      });
    }

    for (const type of DOCUMENT_TYPES) {
      for (const field of ['number', 'date']) {
        requirementTest('BUS-BEN-005', { row: `a ${type} without ${field} is refused` }, async (t) => {
          const body = withDocument(type);
          delete typed(body)[field];
          await expectNotCreated(t, body, `a beneficiary whose ${type} has no ${field}`, `a beneficiary with a ${type}`, () =>
            withDocument(type),
          );
        });
      }
    }

    for (const type of ['UL_RESIDENT', 'UL_NONRESIDENT']) {
      requirementTest('BUS-BEN-006', { row: `a ${type} with a LEGAL_ENTITY_ADDRESS is accepted` }, async (t) => {
        await expectAccepted(beneficiary(type), `a ${type} with a LEGAL_ENTITY_ADDRESS`, t);
      });
      requirementTest('BUS-BEN-006', { row: `a ${type} with only a POSTAL_ADDRESS is refused` }, async (t) => {
        const body = beneficiary(type);
        body.addresses = [{ type: 'POSTAL_ADDRESS', address: 'а/я 15, г. Москва' }];
        await expectNotCreated(t, body, `a ${type} whose only address is a POSTAL_ADDRESS`, `a ${type}`, () => beneficiary(type));
      });
      requirementTest('BUS-BEN-006', { row: `a ${type} without addresses is refused` }, async (t) => {
        const body = beneficiary(type);
        delete body.addresses;
        await expectNotCreated(t, body, `a ${type} without addresses`, `a ${type}`, () => beneficiary(type));
      });
    }

    for (const type of ['FL_RESIDENT', 'IP_RESIDENT']) {
      requirementTest('BUS-BEN-007', { row: `a ${type} without citizenship is refused` }, async (t) => {
        const body = beneficiary(type);
        delete body.citizenship;
        await expectNotCreated(t, body, `a ${type} without citizenship`, `a ${type}`, () => beneficiary(type));
      });
    }

    for (const type of ['FL_RESIDENT', 'UL_RESIDENT']) {
      requirementTest('BUS-BEN-008', { row: `a ${type} with neither phoneNumber nor email is refused` }, async (t) => {
        const body = beneficiary(type);
        delete body.phoneNumber;
        delete body.email;
        await expectNotCreated(t, body, `a ${type} with neither phoneNumber nor email`, `a ${type}`, () => beneficiary(type));
      });
      for (const kept of ['phoneNumber', 'email']) {
        requirementTest('BUS-BEN-008', { row: `a ${type} with only ${kept} is accepted` }, async (t) => {
          const body = beneficiary(type);
          delete body[kept === 'phoneNumber' ? 'email' : 'phoneNumber'];
          if (body[kept] === undefined) body[kept] = kept === 'phoneNumber' ? '79991234567' : 'office@example.com';
          await expectAccepted(body, `a ${type} with only ${kept}`, t);
        });
      }
    }

    requirementTest('BUS-BEN-009', { row: 'a UL_NONRESIDENT with neither inn nor kio is refused' }, async (t) => {
      const body = beneficiary('UL_NONRESIDENT');
      delete body.kio;
      await expectNotCreated(t, body, 'a UL_NONRESIDENT with neither inn nor kio', 'a UL_NONRESIDENT', () => beneficiary('UL_NONRESIDENT'));
    });
    requirementTest('BUS-BEN-009', { row: 'a UL_NONRESIDENT with kio and no inn is accepted' }, async (t) => {
      await expectAccepted(beneficiary('UL_NONRESIDENT'), 'a UL_NONRESIDENT with kio and no inn', t);
    });

    for (const type of ['FL_RESIDENT', 'FL_NONRESIDENT']) {
      requirementTest('BUS-BEN-010', { row: `a ${type} without birthPlace is accepted` }, async (t) => {
        const body = beneficiary(type);
        delete body.birthPlace;
        await expectAccepted(body, `a ${type} without birthPlace`, t);
      });
    }
  },
);

rulesBlock(plan, 'business rules: one beneficiary per Idempotency-Key (vendor)', ['BUS-BEN-011'], [BENEFICIARY_CREATE], ([create]) => {
  requirementTest('BUS-BEN-011', { row: `${BENEFICIARY_CREATE} repeated with one Idempotency-Key` }, async (t) => {
    const key = create.model.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    if (!key)
      throw new ToolError('PRECONDITION_MISSING', `${BENEFICIARY_CREATE} declares no Idempotency-Key header in the served document`);
    const sent = beneficiaryRequest(create, 'echo', clean(beneficiary('UL_RESIDENT')));
    fitsDocument(create, sent, 'a UL_RESIDENT beneficiary');
    const idOf = (json: unknown) => (isJsonObject(json) ? json.beneficiaryId : undefined);
    const first = await submit(create, sent, 'a beneficiary');
    t.expectNone(accepted(create, first, t.id), first, 'the first create');
    const again = await submit(create, sent, 'the same create, same Idempotency-Key');
    if (again.status !== 409) {
      t.expectNone(accepted(create, again, t.id), again, 'the same create again');
      const [a, b] = [idOf(first.json), idOf(again.json)];
      t.expectNone(
        a !== undefined && a === b
          ? []
          : [
              failure(
                t.id,
                `the repeat answers the first beneficiary (beneficiaryId ${JSON.stringify(a)}), or a 409`,
                `beneficiaryId ${JSON.stringify(b)}: a second beneficiary`,
              ),
            ],
        again,
      );
    }
    const other = await submit(
      create,
      { ...sent, header: { ...sent.header, [key.name]: randomUUID() } },
      'the same body with another Idempotency-Key',
    );
    t.expectNone(accepted(create, other, t.id), other, 'the same body with another key');
    const c = idOf(other.json);
    t.expectNone(
      c !== undefined && c !== idOf(first.json)
        ? []
        : [failure(t.id, 'another key creates another beneficiary (a new beneficiaryId)', `beneficiaryId ${JSON.stringify(c)}`)],
      other,
    );
  });
});
