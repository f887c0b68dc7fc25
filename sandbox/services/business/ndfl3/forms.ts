/**
 * The v1 3-NDFL calls under /api/v1/ndfl-3/requests/{taxRequestId} (spec 4.5): the client's form with
 * its attachments, machine-readable document data, and the tax-form upload (vendor: 1 per second).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FaultSet } from '../../../faults/types.ts';
import { sendBusinessError } from '../errors.ts';
import { jsonBodyOf, sendJson, type Guard } from './guard.ts';
import { documentData, taxFormUpload, type Broken } from './validate.ts';

const BASE = '/api/v1/ndfl-3/requests/:taxRequestId';

const invalid = (broken: Broken) => [`${broken.field} ${broken.message}`, { [broken.field]: broken.message }] as const;

export function registerForms(app: FastifyInstance, guard: Guard, faults: FaultSet): void {
  app.get(`${BASE}/info/form`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    return sendJson(request, reply, 200, {
      taxRequestId: record.taxRequestId,
      taxYear: record.taxYear,
      fields: record.formFields,
      attachments: record.attachments.map((a) => ({ attachmentId: a.attachmentId, fileName: a.fileName, mimeType: a.mimeType, size: a.content.length })),
    });
  });

  app.get(`${BASE}/info/form/attachments/:attachmentId`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    const id = String((request.params as { attachmentId?: string }).attachmentId ?? '').toLowerCase();
    const found = faults.has('ndf-attachment-not-found') ? undefined : record.attachments.find((a) => a.attachmentId === id);
    if (!found) return sendBusinessError(request, reply, 404, 'NOT_FOUND', `attachment ${id} not found in this request`);
    return sendJson(request, reply, 200, { attachmentId: found.attachmentId, fileName: found.fileName, mimeType: found.mimeType, content: found.content.toString('base64') });
  });

  app.post(`${BASE}/info/document-data`, async (request, reply) => {
    const record = guard.enter(request, reply);
    if (!record) return reply;
    const body = jsonBodyOf(request);
    if (!body.ok) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', body.message);
    const broken = documentData(body.value);
    if (broken) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', ...invalid(broken));
    if (faults.has('ndf-document-data-rejected')) return sendBusinessError(request, reply, 422, 'UNPROCESSABLE', 'the document data could not be processed');
    return sendJson(request, reply, 200, { documentDataId: randomUUID(), status: 'ACCEPTED' });
  });

  app.post(`${BASE}/tax-form/upload`, async (request, reply) => {
    const record = guard.enter(request, reply, 'upload');
    if (!record) return reply;
    const body = jsonBodyOf(request);
    if (!body.ok) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', body.message);
    const broken = taxFormUpload(body.value);
    if (broken) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', ...invalid(broken));
    if (faults.has('ndf-upload-500')) return sendBusinessError(request, reply, 500, 'INTERNAL_ERROR', 'unexpected error');
    return sendJson(request, reply, 200, { uploadId: randomUUID(), status: 'UPLOADED', uploadedAt: new Date().toISOString() });
  });
}
