/**
 * Tax requests kept in memory, one store per running sandbox (several sandboxes may share a process,
 * as the fault run does). A request has a state, a version that changes with every change of the
 * request, a declaration, a chat and the client's form with its attachments.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { INITIAL_STATE, type State } from './machine.ts';

export interface StoredAnswer {
  questionId: string;
  value: string;
}

export interface ChatEntry {
  messageId: string;
  author: 'CLIENT' | 'PARTNER' | 'BANK';
  text: string;
  attachments?: Array<{ attachmentId: string; fileName: string }>;
  createdAt: string;
}

export interface Attachment {
  attachmentId: string;
  fileName: string;
  mimeType: 'application/pdf' | 'application/xml' | 'image/jpeg' | 'image/png';
  content: Buffer;
}

export interface TaxRequestRecord {
  taxRequestId: string;
  status: State;
  version: string;
  revision: number;
  taxYear: number;
  client: { lastName: string; firstName: string; middleName: string; inn: string; phone: string; email: string };
  createdAt: string;
  updatedAt: string;
  answers: StoredAnswer[];
  declarationUpdatedAt: string;
  chat: ChatEntry[];
  attachments: Attachment[];
  formFields: Array<{ code: string; name: string; value: string }>;
}

const PEOPLE = [
  ['Иванова', 'Мария', 'Петровна'],
  ['Смирнов', 'Алексей', 'Игоревич'],
  ['Кузнецова', 'Ольга', 'Сергеевна'],
  ['Попов', 'Дмитрий', 'Андреевич'],
] as const;

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

function newVersion(revision: number): string {
  return `${revision}-${randomBytes(4).toString('hex')}`;
}

export class Ndfl3Store {
  readonly requests = new Map<string, TaxRequestRecord>();

  create(taxYear = new Date().getUTCFullYear() - 1): TaxRequestRecord {
    const now = new Date().toISOString();
    const [lastName, firstName, middleName] = PEOPLE[randomInt(PEOPLE.length)];
    const record: TaxRequestRecord = {
      taxRequestId: randomUUID(),
      status: INITIAL_STATE,
      revision: 1,
      version: newVersion(1),
      taxYear,
      client: { lastName, firstName, middleName, inn: digits(12), phone: `79${digits(9)}`, email: `client${digits(6)}@example.ru` },
      createdAt: now,
      updatedAt: now,
      answers: [],
      declarationUpdatedAt: now,
      chat: [{ messageId: randomUUID(), author: 'CLIENT', text: 'Здравствуйте! Документы для вычета приложены к анкете.', createdAt: now }],
      attachments: [
        {
          attachmentId: randomUUID(),
          fileName: 'passport.pdf',
          mimeType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n% sandbox passport scan\n'),
        },
        {
          attachmentId: randomUUID(),
          fileName: 'income-certificate.xml',
          mimeType: 'application/xml',
          content: Buffer.from(`<?xml version="1.0"?><income year="${taxYear}"/>`),
        },
      ],
      formFields: [
        { code: 'INN', name: 'ИНН налогоплательщика', value: '' },
        { code: 'DEDUCTION_TYPE', name: 'Вид вычета', value: 'PROPERTY' },
        { code: 'INCOME_TOTAL', name: 'Сумма дохода за год', value: String(600000 + randomInt(900000)) },
      ],
    };
    record.formFields[0].value = record.client.inn;
    this.requests.set(record.taxRequestId, record);
    return record;
  }

  /** A change of the request: a new version and updatedAt. */
  touch(record: TaxRequestRecord): void {
    record.revision += 1;
    record.version = newVersion(record.revision);
    record.updatedAt = new Date().toISOString();
  }
}
