/**
 * The v1 3-NDFL calls under /api/v1/ndfl-3/requests/{taxRequestId} (spec 4.5): the client's form with
 * its attachments, machine-readable document data, and the tax-form upload (vendor: 1 per second).
 */
import { randomUUID } from 'node:crypto';
import { businessError } from '../errors.ts';
import { checkedBody, entered, json, type Guard } from './guard.ts';
import type { Ndfl3RouteSpec } from './rules.ts';
import { documentData, taxFormUpload } from './validate.ts';

const BASE = '/api/v1/ndfl-3/requests/:taxRequestId';

export function formRoutes(guard: Guard): Ndfl3RouteSpec[] {
  return [
    {
      method: 'GET',
      path: `${BASE}/info/form`,
      route: 'form',
      handle: entered(guard, (_request, record) =>
        json(200, {
          taxRequestId: record.taxRequestId,
          taxYear: record.taxYear,
          fields: record.formFields,
          attachments: record.attachments.map((a) => ({
            attachmentId: a.attachmentId,
            fileName: a.fileName,
            mimeType: a.mimeType,
            size: a.content.length,
          })),
        }),
      ),
    },
    {
      method: 'GET',
      path: `${BASE}/info/form/attachments/:attachmentId`,
      route: 'attachment',
      handle: entered(guard, (request, record) => {
        const id = String(request.params.attachmentId ?? '').toLowerCase();
        const found = record.attachments.find((a) => a.attachmentId === id);
        if (!found) return businessError(404, 'NOT_FOUND', `attachment ${id} not found in this request`);
        return json(200, {
          attachmentId: found.attachmentId,
          fileName: found.fileName,
          mimeType: found.mimeType,
          content: found.content.toString('base64'),
        });
      }),
    },
    {
      method: 'POST',
      path: `${BASE}/info/document-data`,
      route: 'document-data',
      handle: entered(guard, (request) => {
        const body = checkedBody(request, documentData);
        if ('answer' in body) return body.answer;
        return json(200, { documentDataId: randomUUID(), status: 'ACCEPTED' });
      }),
    },
    {
      method: 'POST',
      path: `${BASE}/tax-form/upload`,
      route: 'upload',
      handle: entered(
        guard,
        (request) => {
          const body = checkedBody(request, taxFormUpload);
          if ('answer' in body) return body.answer;
          return json(200, { uploadId: randomUUID(), status: 'UPLOADED', uploadedAt: new Date().toISOString() });
        },
        'upload',
      ),
    },
  ];
}
