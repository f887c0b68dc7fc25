/**
 * Client certificates for the business operations that need one (spec 5.5). From the target file:
 *   services.business.mtlsUrl                 the secured host
 *   services.business.mtls: { cert, key, ca }  PEM files (paths resolved against the target file's folder)
 *   services.business.mtlsOperations          which operations need the certificate ("METHOD /path")
 * An undici Agent per target and kind (with the certificate, or trusting the CA only, to show a refusal),
 * made once and reused; the RequestSpec's `dispatcher` takes it.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { ToolError } from './errors.ts';
import { serviceOf, type Target } from './target.ts';

export interface MtlsFiles {
  cert: string;
  key: string;
  ca?: string;
}

export type CertificateUse = 'with-certificate' | 'without-certificate';

const agents = new Map<string, Agent>();

/** The certificate files of the target, or a CREDENTIAL_MISSING skip naming the missing key. */
export function mtlsFiles(target: Target): MtlsFiles {
  const mtls = serviceOf(target, 'business').mtls as Partial<MtlsFiles> | undefined;
  for (const key of ['cert', 'key'] as const) {
    if (typeof mtls?.[key] !== 'string' || mtls[key] === '') {
      throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.business.mtls.${key} (the client certificate for operations that need one)`);
    }
  }
  return { cert: mtls!.cert!, key: mtls!.key!, ca: typeof mtls!.ca === 'string' && mtls!.ca !== '' ? mtls!.ca : undefined };
}

/** services.business.mtlsUrl, or a CREDENTIAL_MISSING skip. */
export function mtlsUrl(target: Target): string {
  const url = serviceOf(target, 'business').mtlsUrl;
  if (typeof url !== 'string' || url === '') throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.business.mtlsUrl (the secured host)`);
  // Over plain http no certificate is ever presented, so every mTLS check would pass or fail for nothing.
  if (!/^https:\/\//i.test(url)) throw new ToolError('TARGET_FILE_INVALID', `${target.file}: key "services.business.mtlsUrl" must be an https URL (a client certificate is only presented over TLS)`);
  return url.replace(/\/+$/, '');
}

function read(file: string, what: string, target: Target): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ToolError('TARGET_FILE_INVALID', `${target.file}: services.business.mtls.${what} names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
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
  return /ERR_SSL|SSL alert|alert (certificate|handshake|bad)|certificate required|ECONNRESET|socket hang up|other side closed|EPIPE/i.test(text);
}
