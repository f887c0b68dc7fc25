/** Business sandbox part "runtime": registered by ../index.ts. Being built (see the issue of this part). */
import type { FastifyInstance } from 'fastify';
import type { Fault } from '../../../faults/types.ts';
import type { ListenerUrls, ServiceContext } from '../../../types.ts';

export const faults: Fault[] = [];
export const credentials: Record<string, string> = {};

export function register(_app: FastifyInstance, _ctx: ServiceContext): void {}

export function targetSection(_urls: ListenerUrls, _ctx: ServiceContext): Record<string, unknown> {
  return {};
}
