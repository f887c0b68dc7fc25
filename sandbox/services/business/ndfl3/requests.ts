/**
 * The tax request and what hangs off it, under /api/private/ndfl3/requests/{taxRequestId}:
 * the request data, the questionnaire structure, the declaration (read, edit) and the chat (read,
 * send). Plus the sandbox-only provisioning call, which is outside the contract (README.md).
 */
import { randomUUID } from 'node:crypto';
import { businessError } from '../errors.ts';
import { checkedBody, entered, ifMatchOf, invalid, json, jsonBodyOf, type Guard } from './guard.ts';
import { TERMINAL } from './machine.ts';
import type { Ndfl3RouteSpec, Ndfl3Rules } from './rules.ts';
import type { Ndfl3Store, TaxRequestRecord } from './store.ts';
import { chatMessage, declarationUpdate } from './validate.ts';

export const PROVISIONING_PATH = '/_sandbox/ndfl3/requests';
const BASE = '/api/private/ndfl3/requests/:taxRequestId';

const STRUCTURE = [
  {
    sectionId: 'income',
    title: 'Доходы',
    questions: [
      { questionId: 'income.salary', text: 'Доход по основному месту работы, руб.', answerType: 'number', required: true },
      { questionId: 'income.sale', text: 'Продавали ли вы имущество в отчётном году?', answerType: 'boolean', required: true },
    ],
  },
  {
    sectionId: 'deduction',
    title: 'Вычеты',
    questions: [
      {
        questionId: 'deduction.kind',
        text: 'Какой вычет вы заявляете?',
        answerType: 'choice',
        required: true,
        options: ['PROPERTY', 'SOCIAL_MEDICAL', 'SOCIAL_EDUCATION', 'INVESTMENT'],
      },
      { questionId: 'deduction.date', text: 'Дата права на вычет', answerType: 'date', required: false },
      { questionId: 'deduction.comment', text: 'Комментарий для консультанта', answerType: 'string', required: false },
    ],
  },
];

function taxRequestView(r: TaxRequestRecord) {
  return {
    taxRequestId: r.taxRequestId,
    type: 'Declaration',
    status: r.status,
    version: r.version,
    taxYear: r.taxYear,
    client: r.client,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const declarationView = (r: TaxRequestRecord) => ({
  taxRequestId: r.taxRequestId,
  version: r.version,
  status: r.status,
  taxYear: r.taxYear,
  answers: r.answers,
  updatedAt: r.declarationUpdatedAt,
});

export function requestRoutes(guard: Guard, store: Ndfl3Store, checks: Ndfl3Rules): Ndfl3RouteSpec[] {
  return [
    {
      method: 'POST',
      path: PROVISIONING_PATH,
      route: 'provision',
      handle: (request) => {
        const caller = guard.authorised(request);
        if ('answer' in caller) return caller.answer;
        const body = jsonBodyOf(request);
        const year = body.ok && body.value && typeof body.value === 'object' ? (body.value as { taxYear?: unknown }).taxYear : undefined;
        if (!body.ok || (year !== undefined && !(Number.isInteger(year) && (year as number) >= 2015 && (year as number) <= 2100))) {
          return invalid('the body is optional: { "taxYear": 2015..2100 }');
        }
        const record = store.create(year as number | undefined);
        const answer = json(201, taxRequestView(record), record.version);
        return { ...answer, headers: { ...answer.headers, location: `/api/private/ndfl3/requests/${record.taxRequestId}` } };
      },
    },
    {
      method: 'GET',
      path: BASE,
      route: 'request',
      handle: entered(guard, (_request, record) => json(200, taxRequestView(record), record.version)),
    },
    {
      method: 'GET',
      path: `${BASE}/declaration/structure`,
      route: 'structure',
      handle: entered(guard, (_request, record) => json(200, { taxRequestId: record.taxRequestId, sections: STRUCTURE })),
    },
    {
      method: 'GET',
      path: `${BASE}/declaration`,
      route: 'declaration.read',
      handle: entered(guard, (_request, record) => json(200, declarationView(record), record.version)),
    },
    {
      method: 'PUT',
      path: `${BASE}/declaration`,
      route: 'declaration.edit',
      handle: entered(guard, (request, record) => {
        const body = checkedBody(request, declarationUpdate, true);
        if ('answer' in body) return body.answer;
        const ifMatch = ifMatchOf(request);
        if (ifMatch !== undefined && ifMatch !== record.version) {
          return businessError(422, 'VERSION_MISMATCH', 'If-Match does not match the current version of the request', {
            'If-Match': ifMatch,
            currentVersion: record.version,
          });
        }
        if (TERMINAL.has(record.status))
          return businessError(422, 'DECLARATION_LOCKED', `the declaration cannot be edited in state ${record.status}`, {
            currentState: record.status,
          });
        const edit = body.value as { taxYear?: number; answers: Array<{ questionId: string; value: string }> };
        const kept = {
          taxYear: edit.taxYear ?? record.taxYear,
          answers: checks['declaration.kept'](edit.answers.map((a) => ({ questionId: a.questionId, value: a.value }))),
        };
        store.touch(record);
        checks['declaration.store'](record, kept);
        // The declaration as edited, with the request's new version.
        return json(200, { ...declarationView(record), ...kept }, record.version);
      }),
    },
    {
      method: 'GET',
      path: `${BASE}/chat`,
      route: 'chat.read',
      handle: entered(guard, (request, record) => {
        const query = request.query as { offset?: string; limit?: string };
        const offset = query.offset === undefined ? 0 : Number(query.offset);
        const limit = query.limit === undefined ? 100 : Number(query.limit);
        if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
          return invalid('offset must be an integer >= 0 and limit an integer from 1 to 1000');
        }
        return json(200, { messages: record.chat.slice(offset, offset + limit) });
      }),
    },
    {
      method: 'POST',
      path: `${BASE}/chat/send`,
      route: 'chat.send',
      handle: entered(guard, (request, record) => {
        const body = checkedBody(request, chatMessage);
        if ('answer' in body) return body.answer;
        const sent = body.value as { text: string; attachmentIds?: string[] };
        const known = new Map(record.attachments.map((a) => [a.attachmentId, a]));
        const missing = (sent.attachmentIds ?? []).find((id) => !known.has(id.toLowerCase()));
        if (missing)
          return businessError(422, 'ATTACHMENT_NOT_FOUND', `attachment ${missing} does not belong to this request`, {
            attachmentIds: missing,
          });
        const message = {
          messageId: randomUUID(),
          author: 'PARTNER' as const,
          text: sent.text,
          ...(sent.attachmentIds?.length
            ? { attachments: sent.attachmentIds.map((id) => ({ attachmentId: id, fileName: known.get(id.toLowerCase())!.fileName })) }
            : {}),
          createdAt: new Date().toISOString(),
        };
        checks['chat.store'](record, message);
        return json(200, message);
      }),
    },
  ];
}
