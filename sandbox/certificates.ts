/**
 * The sandbox's own certificate authority, made with @peculiar/x509 on node's webcrypto (once per
 * process and host: `sandboxCertificates`): a CA, a server certificate for the mTLS listener (valid for
 * the listening host, 127.0.0.1, ::1 and localhost) and one client certificate. Written as PEM files
 * into the sandbox's work folder; the target file gets the absolute paths of the CA and the client
 * pair. Nothing here is a secret of anything but this sandbox run.
 */
import { webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// tsyringe, a dependency of @peculiar/x509, needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import type * as X509 from '@peculiar/x509';

export interface CertificateFiles {
  /** CA certificate (PEM): what a client trusts for the server, and what the server trusts for clients. */
  ca: string;
  /** Client certificate and its private key (PEM), signed by the CA. */
  clientCert: string;
  clientKey: string;
  /** Server certificate and key of the mTLS listener. */
  serverCert: string;
  serverKey: string;
}

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
/** The provider @peculiar/x509 expects (its type is the DOM's Crypto, which node's webcrypto implements). */
type X509Crypto = Parameters<typeof X509.X509CertificateGenerator.create>[1];

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const crypto = webcrypto as unknown as X509Crypto;

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

function validity(): { notBefore: Date; notAfter: Date } {
  // A little in the past, so that a client clock slightly behind still accepts it.
  const now = Date.now();
  return { notBefore: new Date(now - 3600_000), notAfter: new Date(now + 2 * 86400_000) };
}

function serial(): string {
  return `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex')}`;
}

function hostNames(host: string): Array<{ type: 'ip' | 'dns'; value: string }> {
  const names = new Map<string, { type: 'ip' | 'dns'; value: string }>();
  for (const value of ['127.0.0.1', '::1', 'localhost', host]) {
    if (value === '0.0.0.0' || value === '::') continue;
    names.set(value, { type: isIP(value) ? 'ip' : 'dns', value });
  }
  return [...names.values()];
}

/**
 * @peculiar/x509, loaded on first use, by Node's own require: its package names an ES build only through
 * the `module` field, so an import inside vitest (whose global setup starts the sandbox) is transformed
 * and run by vite's module runner, about 0.8 s against 0.15 s for the CommonJS build.
 */
async function x509Module(): Promise<typeof X509> {
  return createRequire(import.meta.url)('@peculiar/x509') as typeof X509;
}

async function leaf(
  x509: typeof X509,
  ca: { cert: X509.X509Certificate; keys: CryptoKeyPair },
  subject: string,
  usage: string,
  altNames: Array<{ type: 'ip' | 'dns'; value: string }> = [],
) {
  const keys = await keyPair();
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([usage]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey, false, crypto),
  ];
  if (altNames.length) extensions.push(new x509.SubjectAlternativeNameExtension(altNames));
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject,
      issuer: ca.cert.subject,
      ...validity(),
      publicKey: keys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: ALGORITHM,
      extensions,
    },
    crypto,
  );
  return { cert: cert.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

/** The PEM texts of a CA, the server and the client certificates and their keys. */
type CertificatePems = Record<keyof CertificateFiles, string>;

async function makePems(host: string): Promise<CertificatePems> {
  const x509 = await x509Module();
  const caKeys = await keyPair();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: 'CN=partner-conformance sandbox CA, O=partner-conformance',
      ...validity(),
      keys: caKeys,
      signingAlgorithm: ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const ca = { cert: caCert, keys: caKeys };
  const server = await leaf(x509, ca, 'CN=partner-conformance sandbox mTLS listener', x509.ExtendedKeyUsage.serverAuth, hostNames(host));
  const client = await leaf(x509, ca, 'CN=partner-conformance sandbox client, O=partner-conformance', x509.ExtendedKeyUsage.clientAuth);
  return { ca: caCert.toString('pem'), clientCert: client.cert, clientKey: client.key, serverCert: server.cert, serverKey: server.key };
}

function writeCertificates(dir: string, pems: CertificatePems): CertificateFiles {
  const files: CertificateFiles = {
    ca: join(dir, 'ca.pem'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client-key.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server-key.pem'),
  };
  writeFileSync(files.ca, pems.ca);
  writeFileSync(files.clientCert, pems.clientCert);
  writeFileSync(files.clientKey, pems.clientKey, { mode: 0o600 });
  writeFileSync(files.serverCert, pems.serverCert);
  writeFileSync(files.serverKey, pems.serverKey, { mode: 0o600 });
  return files;
}

/** Makes a new CA, the server and the client certificates and writes them into `dir` (absolute paths back). */
export async function makeCertificates(dir: string, host: string): Promise<CertificateFiles> {
  return writeCertificates(dir, await makePems(host));
}

const shared = new Map<string, Promise<CertificatePems>>();

/**
 * The certificates of every sandbox this process starts for `host`, made once and written into `dir`:
 * the fault and latitude runs start a sandbox per variant, and making a CA and two certificates cost
 * each business variant about 25 ms of CPU. The sandboxes of one process trust each other's clients.
 */
export async function sandboxCertificates(dir: string, host: string): Promise<CertificateFiles> {
  let pems = shared.get(host);
  if (!pems) {
    shared.set(host, (pems = makePems(host)));
    pems.catch(() => shared.delete(host));
  }
  return writeCertificates(dir, await pems);
}
