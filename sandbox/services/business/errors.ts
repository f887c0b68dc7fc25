/**
 * The business error body (public facts): { errorId, errorMessage, errorCode, errorDetails? } as JSON,
 * with an X-Request-Id header on every answer (the caller's, echoed, or a fresh one).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export function requestIdOf(request: FastifyRequest): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && sent.length > 0 && sent.length <= 128 ? sent : randomUUID();
}

/** The business error body. */
export function businessErrorBody(errorCode: string, errorMessage: string, errorDetails?: Record<string, unknown>) {
  return { errorId: randomUUID(), errorMessage, errorCode, ...(errorDetails ? { errorDetails } : {}) };
}

/** A business error answer as data (sandbox/exchange.ts), with `headers` besides its Content-Type. */
export function businessError(
  status: number,
  errorCode: string,
  errorMessage: string,
  errorDetails?: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: businessErrorBody(errorCode, errorMessage, errorDetails),
  };
}

export function sendBusinessError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  errorCode: string,
  errorMessage: string,
  errorDetails?: Record<string, unknown>,
) {
  return reply
    .code(status)
    .header('x-request-id', requestIdOf(request))
    .type('application/json')
    .send(businessErrorBody(errorCode, errorMessage, errorDetails));
}

/** Unknown business paths and unexpected handler errors answer with the business error body. */
export function registerErrorAnswers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    sendBusinessError(request, reply, 404, 'NOT_FOUND', `no operation ${request.method} ${request.url.split('?')[0]}`),
  );
  app.setErrorHandler((error, request, reply) => {
    const status = typeof (error as { statusCode?: number }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
    if (status >= 500) return sendBusinessError(request, reply, 500, 'INTERNAL_ERROR', 'unexpected error');
    return sendBusinessError(request, reply, status, 'VALIDATION_ERROR', (error as Error).message);
  });
}
