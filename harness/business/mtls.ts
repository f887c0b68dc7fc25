/**
 * Client certificates for the business operations that need one (spec 5.5). From the target file:
 *   services.business.mtlsUrl                 the secured host
 *   services.business.mtls: { cert, key, ca }  PEM files (paths resolved against the target file's folder)
 *   services.business.mtlsOperations          which operations need the certificate ("METHOD /path")
 * An undici Agent per target and kind (with the certificate, or trusting the CA only, to show a refusal),
 * made once and reused; the RequestSpec's `dispatcher` takes it.
 */
import { readBoundedBytes } from '../config/bounded-file.ts';
import { Agent } from 'undici';
import { businessConfig } from './config.ts';
import { ToolError } from '../errors.ts';
import type { Target } from '../config/target.ts';

export interface MtlsFiles {
  cert: string;
  key: string;
  ca?: string;
}

export type CertificateUse = 'with-certificate' | 'without-certificate';

const agents = new Map<string, Agent>();

/** The certificate files of the target, or a CREDENTIAL_MISSING skip naming the missing key. */
export function mtlsFiles(target: Target): MtlsFiles {
  const mtls = businessConfig(target).mtls ?? {};
  const { cert, key, ca } = mtls;
  if (!cert || !key) {
    throw new ToolError(
      'CREDENTIAL_MISSING',
      `the target file ${target.name} has no services.business.mtls.${cert ? 'key' : 'cert'} (the client certificate for operations that need one)`,
    );
  }
  return { cert, key, ca: ca || undefined };
}

/** services.business.mtlsUrl, or a CREDENTIAL_MISSING skip. */
export function mtlsUrl(target: Target): string {
  const url = businessConfig(target).mtlsUrl;
  if (!url) throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.business.mtlsUrl (the secured host)`);
  return url.replace(/\/+$/, '');
}

function read(file: string, what: string, target: Target): Buffer {
  return readBoundedBytes(
    file,
    (problem) => new ToolError('TARGET_FILE_INVALID', `${target.file}: services.business.mtls.${what} names ${file}, which ${problem}`),
    'a PEM certificate or key is a few kilobytes',
  );
}

/**
 * A dispatcher for the secured host: with the client certificate, or without one (still trusting the
 * configured CA, so that only the missing certificate can explain a refusal).
 */
export function mtlsDispatcher(target: Target, use: CertificateUse = 'with-certificate'): Agent {
  const key = `${target.file}|${use}`;
  let agent = agents.get(key);
  if (!agent) {
    const files = mtlsFiles(target);
    const ca = files.ca ? read(files.ca, 'ca', target) : undefined;
    const certificate = use === 'with-certificate' ? { cert: read(files.cert, 'cert', target), key: read(files.key, 'key', target) } : {};
    agent = new Agent({ connect: { ...(ca ? { ca } : {}), ...certificate } });
    agents.set(key, agent);
  }
  return agent;
}

/** Transport errors that mean the TLS handshake refused us (the secured host wants a certificate). */
export function isTlsRefusal(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ''} ${(error as { cause?: { code?: string } })?.cause?.code ?? ''}`;
  return /ERR_SSL|SSL alert|alert (certificate|handshake|bad)|certificate required|ECONNRESET|socket hang up|other side closed|EPIPE/i.test(
    text,
  );
}
