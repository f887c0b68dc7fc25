/**
 * The reachability probe: before any test runs, one connection to each service's origin, made as the
 * HTTP client makes it (undici's own connector: DNS, TCP and, for https, the TLS handshake with the
 * certificate checked), within the request deadline of the target file (`settings.timeoutMs`). A
 * connection refused, a name that does not resolve, a certificate that is not trusted, or no connection
 * within the deadline means the service's tests are reported as tool errors at once, with the probe's
 * code, instead of each finding it out. Nothing is sent on the connection: how fast, or whether, the
 * service answers some request is for the tests to find out with the requests they make (a slow but
 * healthy service, or one that ignores a GET of its base URL, is tested like any other), and a service
 * that stops answering is given up on after three failures in the run (transport/origin-health.ts).
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { ToolErrorCode } from '../errors.ts';
import type { Target } from '../config/target.ts';
import { AREAS, type Area } from '../areas.ts';
import { RequestDeadline } from '../transport/deadline.ts';
import { causeOf, classifyTransportError } from '../transport/errors.ts';

export interface ProbeFailure {
  code: ToolErrorCode;
  message: string;
}

function connect(url: URL, deadline: RequestDeadline): Promise<void> {
  const connector = buildConnector({ timeout: deadline.deadlineMs });
  // undici strips the brackets of an IPv6 literal the same way before it connects.
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise((resolve, reject) => {
    let socket: Socket | undefined;
    // The connector's own timeout covers the TCP connect only; the deadline covers a name lookup and a
    // TLS handshake that hang too, and closes the connection it gave up on.
    const onAbort = () => {
      socket?.destroy();
      reject(deadline.signal.reason);
    };
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    // At run time the connector returns the socket it is connecting (its type says void).
    socket = connector({ hostname, host: url.host, protocol: url.protocol, port: url.port }, (error, connected) => {
      deadline.signal.removeEventListener('abort', onAbort);
      connected?.destroy();
      if (error) reject(error);
      else resolve();
    }) as unknown as Socket | undefined;
  });
}

async function probeUrl(url: string, deadlineMs: number): Promise<ProbeFailure | undefined> {
  const parsed = new URL(url);
  const origin = parsed.origin;
  const deadline = new RequestDeadline(deadlineMs);
  try {
    await connect(parsed, deadline);
    return undefined;
  } catch (error) {
    const { code } = classifyTransportError(error, { operation: 'the reachability probe', origin, deadline, bodyBytes: 0 }).error;
    if (code === 'TARGET_TIMEOUT')
      return { code, message: `${origin} did not complete a connection within ${deadlineMs} ms (settings.timeoutMs)` };
    return { code: code as ToolErrorCode, message: `${origin} could not be reached (${causeOf(error)})` };
  } finally {
    deadline.dispose();
  }
}

/** Probes every selected service (its plain URL; the mTLS URL is probed by the mTLS tests themselves). */
export async function probeServices(target: Target, deadlineMs = target.settings.timeoutMs): Promise<Partial<Record<Area, ProbeFailure>>> {
  const out: Partial<Record<Area, ProbeFailure>> = {};
  await Promise.all(
    AREAS.filter((area) => target.areas.includes(area) && target.services[area]).map(async (area) => {
      const failure = await probeUrl(target.services[area]!.url, deadlineMs);
      if (failure) out[area] = failure;
    }),
  );
  return out;
}
