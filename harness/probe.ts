/**
 * The reachability probe: before any test runs, one request to each service's base URL, with a short
 * total deadline. Any HTTP answer (whatever its status) means reachable; a refused connection, a DNS or
 * TLS failure, garbled HTTP, or silence means the service's tests are reported as tool errors at once,
 * with the probe's code, instead of each waiting out its own deadline. The answer's body is not read.
 */
import { request } from 'undici';
import type { ToolErrorCode } from './errors.ts';
import { AREAS, type Area, type Target } from './target.ts';
import { discard } from './transport/body.ts';
import { RequestDeadline } from './transport/deadline.ts';
import { causeOf, classifyTransportError } from './transport/errors.ts';

export interface ProbeFailure {
  code: ToolErrorCode;
  message: string;
}

export const PROBE_DEADLINE_MS = 5_000;

async function probeUrl(url: string, deadlineMs: number): Promise<ProbeFailure | undefined> {
  const origin = new URL(url).origin;
  const deadline = new RequestDeadline(deadlineMs);
  try {
    const res = await request(url, { method: 'GET', signal: deadline.signal, headersTimeout: deadlineMs, bodyTimeout: deadlineMs });
    discard(res.body);
    return undefined;
  } catch (error) {
    const { code } = classifyTransportError(error, { operation: 'the reachability probe', origin, deadline, bodyBytes: 0 }).error;
    if (code === 'TARGET_TIMEOUT') return { code, message: `${origin} did not answer the reachability probe within ${deadlineMs} ms` };
    if (code === 'TARGET_PROTOCOL_ERROR') return { code, message: `${origin} answered the reachability probe with something that is not valid HTTP (${causeOf(error)})` };
    return { code: code as ToolErrorCode, message: `${origin} could not be reached (${causeOf(error)})` };
  } finally {
    deadline.dispose();
  }
}

/** Probes every selected service (its plain URL; the mTLS URL is probed by the mTLS tests themselves). */
export async function probeServices(target: Target, deadlineMs = PROBE_DEADLINE_MS): Promise<Partial<Record<Area, ProbeFailure>>> {
  const out: Partial<Record<Area, ProbeFailure>> = {};
  await Promise.all(
    AREAS.filter((area) => target.areas.includes(area) && target.services[area]).map(async (area) => {
      const failure = await probeUrl(target.services[area]!.url, deadlineMs);
      if (failure) out[area] = failure;
    }),
  );
  return out;
}
