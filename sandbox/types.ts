import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import type { CertificateFiles } from './certificates.ts';
import type { Credentials } from './credentials.ts';
import type { FaultSet, SandboxArea } from './faults/types.ts';

export interface ServiceContext {
  faults: FaultSet;
  credentials: Credentials;
  /** Folder for files the sandbox makes (certificates); absolute. */
  workDir: string;
  /** The sandbox's CA and client certificate (absolute PEM paths), made at start for the mTLS listener. */
  tls?: CertificateFiles;
}

export interface ListenerUrls {
  /** Plain HTTP listener, e.g. http://127.0.0.1:8080 */
  http: string;
  /** The mTLS listener, e.g. https://127.0.0.1:8443 */
  https?: string;
}

/** One service of the sandbox: its routes under its own prefix, and its section of the target file. */
export interface SandboxService {
  area: SandboxArea;
  prefix: string;
  /** Serves routes over the mTLS listener too: the sandbox makes its certificates and that listener only for such a service. */
  mtls?: true;
  register(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
  targetSection(urls: ListenerUrls, ctx: ServiceContext): Record<string, unknown>;
}

/** Whether each connection of the mTLS listener carried a client certificate (read once per connection). */
const certifiedSockets = new WeakMap<object, boolean>();

/**
 * Whether the request came over the mTLS listener with a client certificate that the sandbox's CA
 * signed. Both listeners serve the same routes; only this tells them apart. `authorized` alone is not
 * enough: node reports a resumed TLS 1.3 session as authorized even when it carried no certificate.
 */
export function clientCertified(request: FastifyRequest): boolean {
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (socket.encrypted !== true || socket.authorized !== true || typeof socket.getPeerCertificate !== 'function') return false;
  // A connection's peer certificate never changes: read once per connection (node builds the whole object each time).
  let certified = certifiedSockets.get(socket);
  if (certified === undefined) certifiedSockets.set(socket, (certified = socket.getPeerCertificate().raw !== undefined));
  return certified;
}
