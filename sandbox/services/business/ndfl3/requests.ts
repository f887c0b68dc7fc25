/**
 * The tax request and what hangs off it, under /api/private/ndfl3/requests/{taxRequestId}:
 * the request data, the questionnaire structure, the declaration (read, edit) and the chat (read,
 * send). Plus the sandbox-only provisioning call, which is outside the contract (README.md).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FaultSet } from '../../../faults/types.ts';
import { sendBusinessError } from '../errors.ts';
import { ifMatchOf, ifMatchProblem, jsonBodyOf, sendJson, type Guard } from './guard.ts';
import { TERMINAL } from './machine.ts';
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
      { questionId: 'deduction.kind', text: 'Какой вычет вы заявляете?', answerType: 'choice', required: true, options: ['PROPERTY', 'SOCIAL_MEDICAL', 'SOCIAL_EDUCATION', 'INVESTMENT'] },
      { questionId: 'deduction.date', text: 'Дата права на вычет', answerType: 'date', required: false },
      { questionId: 'deduction.comment', text: 'Комментарий для консультанта', answerType: 'string', required: false },
    ],
  },
];

function taxRequestView(r: TaxRequestRecord, faults?: FaultSet) {
  const status = faults?.has('ndf-state-outside-table') && r.status === 'Preprocess' ? 'InReview' : r.status;
  return { taxRequestId: r.taxRequestId, type: 'Declaration', status, version: r.version, taxYear: r.taxYear, client: r.client, createdAt: r.createdAt, updatedAt: r.updatedAt };
}

const declarationView = (r: TaxRequestRecord) => ({ taxRequestId: r.taxRequestId, version: r.version, status: r.status, taxYear: r.taxYear, answers: r.answers, updatedAt: r.declarationUpdatedAt });

export function registerRequests(app: FastifyInstance, guard: Guard, store: Ndfl3Store, faults: FaultSet): void {
  app.post(PROVISIONING_PATH, async (request, reply) => {
    if (!guard.authorised(request, reply)) return reply;
    const body = jsonBodyOf(request);
    const year = body.ok && body.value && typeof body.value === 'object' ? (body.value as { taxYear?: unknown }).taxYear : undefined;
    if (!body.ok || (year !== undefined && !(Number.isInteger(year) && (year as number) >= 2015 && (year as number) <= 2100))) {
      return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', 'the body is optional: { "taxYear": 2015..2100 }');
    }
    const record = store.create(year as number | undefined);
    reply.header('location', `/api/private/ndfl3/requests/${record.taxRequestId}`);
    return sendJson(request, reply, 201, taxRequestView(record), record.version);
  });

  app.get(BASE, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    return sendJson(request, reply, 200, taxRequestView(record, faults), record.version);
  });

  app.get(`${BASE}/declaration/structure`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    if (faults.has('ndf-structure-without-sections')) return sendJson(request, reply, 200, { taxRequestId: record.taxRequestId });
    return sendJson(request, reply, 200, { taxRequestId: record.taxRequestId, sections: STRUCTURE });
  });

  app.get(`${BASE}/declaration`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    return sendJson(request, reply, 200, declarationView(record), record.version);
  });

  app.put(`${BASE}/declaration`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    const body = jsonBodyOf(request);
    if (!body.ok) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', body.message);
    const broken = declarationUpdate(body.value);
    if (broken) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', `${broken.field} ${broken.message}`, { [broken.field]: broken.message });
    const tooLong = ifMatchProblem(request);
    if (tooLong) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', `If-Match ${tooLong}`, { 'If-Match': tooLong });
    const ifMatch = ifMatchOf(request);
    if (ifMatch !== undefined && ifMatch !== record.version) {
      return sendBusinessError(request, reply, 422, 'VERSION_MISMATCH', 'If-Match does not match the current version of the request', { 'If-Match': ifMatch, currentVersion: record.version });
    }
    if (TERMINAL.has(record.status)) return sendBusinessError(request, reply, 422, 'DECLARATION_LOCKED', `the declaration cannot be edited in state ${record.status}`, { currentState: record.status });
    const edit = body.value as { taxYear?: number; answers: Array<{ questionId: string; value: string }> };
    const answers = edit.answers.map((a) => ({ questionId: a.questionId, value: a.value }));
    const stored = { taxYear: edit.taxYear ?? record.taxYear, answers: faults.has('ndf-declaration-first-answer-only') ? answers.slice(0, 1) : answers };
    store.touch(record);
    if (faults.has('ndf-declaration-not-stored')) return sendJson(request, reply, 200, { ...declarationView(record), ...stored }, record.version);
    record.taxYear = stored.taxYear;
    record.answers = stored.answers;
    record.declarationUpdatedAt = record.updatedAt;
    return sendJson(request, reply, 200, declarationView(record), record.version);
  });

  app.get(`${BASE}/chat`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    const query = request.query as { offset?: string; limit?: string };
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', 'offset must be an integer >= 0 and limit an integer from 1 to 1000');
    }
    return sendJson(request, reply, 200, { messages: record.chat.slice(offset, offset + limit) });
  });

  app.post(`${BASE}/chat/send`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    const body = jsonBodyOf(request);
    if (!body.ok) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', body.message);
    const broken = chatMessage(body.value);
    if (broken) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', `${broken.field} ${broken.message}`, { [broken.field]: broken.message });
    const sent = body.value as { text: string; attachmentIds?: string[] };
    const known = new Map(record.attachments.map((a) => [a.attachmentId, a]));
    const missing = (sent.attachmentIds ?? []).find((id) => !known.has(id.toLowerCase()));
    if (missing) return sendBusinessError(request, reply, 422, 'ATTACHMENT_NOT_FOUND', `attachment ${missing} does not belong to this request`, { attachmentIds: missing });
    const message = {
      messageId: randomUUID(),
      author: 'PARTNER' as const,
      text: sent.text,
      ...(sent.attachmentIds?.length ? { attachments: sent.attachmentIds.map((id) => ({ attachmentId: id, fileName: known.get(id.toLowerCase())!.fileName })) } : {}),
      createdAt: new Date().toISOString(),
    };
    if (!faults.has('ndf-chat-message-lost')) record.chat.push(message);
    return sendJson(request, reply, 200, message);
  });
}
