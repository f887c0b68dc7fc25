/**
 * The reachability probe: before any test runs, one request to each service's base URL, with a short
 * total deadline. Any HTTP answer (whatever its status) means reachable; a refused connection, a DNS or
 * TLS failure, or silence means the service's tests are reported as tool errors at once, with the
 * probe's code, instead of each waiting out its own timeout.
 */
import { request } from 'undici';
import type { ToolErrorCode } from './errors.ts';
import { AREAS, type Area, type Target } from './target.ts';

export interface ProbeFailure {
  code: ToolErrorCode;
  message: string;
}

export const PROBE_DEADLINE_MS = 5_000;

async function probeUrl(url: string, deadlineMs: number): Promise<ProbeFailure | undefined> {
  const origin = new URL(url).origin;
  try {
    const res = await request(url, { method: 'GET', signal: AbortSignal.timeout(deadlineMs), headersTimeout: deadlineMs, bodyTimeout: deadlineMs });
    res.body.on('error', () => undefined).destroy();
    return undefined;
  } catch (error) {
    const err = error as { name?: string; code?: string; cause?: { code?: string; message?: string }; message?: string };
    if (err.name === 'TimeoutError' || err.name === 'AbortError' || /TIMEOUT/.test(err.code ?? '')) {
      return { code: 'TARGET_TIMEOUT', message: `${origin} did not answer the reachability probe within ${deadlineMs} ms` };
    }
    const cause = err.cause?.code ?? err.code ?? err.name;
    return { code: 'TARGET_UNREACHABLE', message: `${origin} could not be reached (${cause}${err.cause?.message ? `: ${err.cause.message}` : ''})` };
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
