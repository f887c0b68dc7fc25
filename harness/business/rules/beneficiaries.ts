/**
 * Beneficiaries that meet every rule of 2.6, one per beneficiary type, and documents of every type with
 * number, date and the type's own required field. The names are the spec's (type, documents' number,
 * date, division, organization, expireDate, citizenship, phoneNumber, email, inn, kio, birthPlace,
 * LEGAL_ENTITY_ADDRESS) and the vendor's for the rest.
 */
import { randomUUID } from 'node:crypto';
import type { GeneratedRequest } from '../runtime/request.ts';
import type { JsonObject } from '../../text/json.ts';
import { innIndividual, innLegal } from './inn.ts';
import { loadedPlan, validRequests, type OperationPlan } from '../runtime/plan.ts';
import { seedFor, type SeedPart } from '../../text/seeds.ts';

export const BENEFICIARY_CREATE = 'POST /api/v1/nominal-accounts/beneficiaries';

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'FOREIGN_PASSPORT',
  'FOREIGN_PASSPORT_OF_FOREIGN_CITIZENS',
  'OFFICIAL_PASSPORT',
  'DIPLOMATIC_PASSPORT',
  'MIGRATION_CARD',
  'TEMPORARY_RESIDENCE_PERMIT',
  'VISA',
  'PATENT',
  'CONTRACT',
  'CONTRACT_GPD',
];
/** The field each type needs beyond number and date (2.6). */
export const OWN_FIELD: Record<string, [string, string]> = {
  PASSPORT: ['division', '770-001'],
  DIPLOMATIC_PASSPORT: ['organization', 'МИД России'],
  PATENT: ['expireDate', '2027-06-30'],
};

export function document(type: string): JsonObject {
  const own = OWN_FIELD[type];
  return { type, number: '123456', date: '2019-06-14', ...(own ? { [own[0]]: own[1] } : {}) };
}

/** A beneficiary of the type that meets every rule of 2.6. */
export function beneficiary(type: string): JsonObject {
  const person = {
    lastName: 'Иванов',
    firstName: 'Иван',
    middleName: 'Иванович',
    birthDate: '1985-04-12',
    phoneNumber: '79991234567',
    email: 'ivanov@example.com',
  };
  switch (type) {
    case 'FL_RESIDENT':
      return {
        type,
        ...person,
        birthPlace: 'г. Москва',
        citizenship: 'RUS',
        inn: innIndividual(),
        documents: [document('PASSPORT')],
        addresses: [{ type: 'REGISTRATION_ADDRESS', address: 'г. Москва, ул. Тверская, д. 1, кв. 1' }],
      };
    case 'FL_NONRESIDENT':
      return {
        type,
        ...person,
        lastName: 'Smith',
        firstName: 'John',
        middleName: undefined,
        birthPlace: 'Astana',
        citizenship: 'KAZ',
        documents: [document('FOREIGN_PASSPORT_OF_FOREIGN_CITIZENS')],
      };
    case 'IP_RESIDENT':
      return {
        type,
        ...person,
        citizenship: 'RUS',
        inn: innIndividual(),
        ogrn: '304500116000157',
        documents: [document('PASSPORT')],
        addresses: [{ type: 'REGISTRATION_ADDRESS', address: 'г. Москва, ул. Тверская, д. 1, кв. 1' }],
      };
    case 'IP_NONRESIDENT':
      return {
        type,
        ...person,
        lastName: 'Smith',
        firstName: 'John',
        middleName: undefined,
        citizenship: 'KAZ',
        documents: [document('FOREIGN_PASSPORT_OF_FOREIGN_CITIZENS')],
      };
    case 'UL_RESIDENT':
      return {
        type,
        name: 'ООО "Ромашка"',
        inn: innLegal(),
        kpp: '771001001',
        ogrn: '1027700132195',
        phoneNumber: '79991234567',
        email: 'office@example.com',
        addresses: [{ type: 'LEGAL_ENTITY_ADDRESS', address: 'г. Москва, ул. Льва Толстого, д. 16' }],
      };
    case 'UL_NONRESIDENT':
      return {
        type,
        name: 'Acme GmbH',
        kio: '12345',
        email: 'office@example.com',
        addresses: [{ type: 'LEGAL_ENTITY_ADDRESS', address: 'Berlin, Unter den Linden 1' }],
      };
    default:
      throw new Error(`no example beneficiary of type ${type}`);
  }
}

/** A create request with this body: parameters generated from the served document, and a fresh Idempotency-Key. */
export function beneficiaryRequest(op: OperationPlan, purpose: SeedPart, body: JsonObject): GeneratedRequest {
  const [generated] = validRequests(loadedPlan(), op, seedFor(op.seed, 'beneficiary', purpose), 1);
  const header = { ...generated.header };
  for (const name of Object.keys(header)) if (name.toLowerCase() === 'idempotency-key') header[name] = randomUUID();
  const declared = op.model.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  if (declared && header[declared.name] === undefined) header[declared.name] = randomUUID();
  return { path: generated.path, query: generated.query, header, body };
}
