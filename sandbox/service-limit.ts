/**
 * A limit on every request of one service, whatever its route and its token, as the service declares
 * it in its section of the target file (`rateLimit`): the sandbox enforces what it declares, so that a
 * run paced by its own file meets a limit that is really there. An onRequest hook in the service's own
 * scope, before any route (and so before any fault's edit); beyond the limit, the service's 429.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendAnswer, type Answer } from './exchange.ts';
import { SlidingWindowLimiter } from './rate-limiter.ts';

export interface ServiceLimit {
  requests: number;
  perSeconds: number;
}

/** `tooMany` writes the service's own 429 to `request` for a wait of `seconds`; Retry-After is added to it. */
export function limitService(
  app: FastifyInstance,
  limit: ServiceLimit,
  tooMany: (seconds: string, request: FastifyRequest) => Answer,
): void {
  const limiter = new SlidingWindowLimiter(limit.requests, limit.perSeconds * 1000);
  app.addHook('onRequest', async (request, reply) => {
    const verdict = limiter.hit('service');
    if (verdict.allowed) return;
    const seconds = String(Math.max(1, Math.ceil(verdict.resetMs / 1000)));
    const answer = tooMany(seconds, request);
    return sendAnswer(reply, { ...answer, headers: { ...answer.headers, 'retry-after': seconds } });
  });
}
