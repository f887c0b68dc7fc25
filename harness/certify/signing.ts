/**
 * Signing a pack's manifest, and checking the signature. The signature is a compact JWS (jose) whose
 * payload is the exact bytes of manifest.json; its protected header carries `alg` (EdDSA for an Ed25519
 * key, ES256 for a P-256 key), `typ`, the public key as a JWK and, as `kid`, that key's RFC 7638
 * thumbprint.
 *
 * The embedded key only lets anyone check that the pack is unchanged since *someone* signed it: whoever
 * alters a pack can re-sign it with a key of their own. What makes a verification mean "signed by the
 * certifier" is a trust anchor given out of band: the certifier's public key (--public-key), or the
 * thumbprint the certifier published (--thumbprint). Without one, verification names the thumbprint and
 * does not accept the pack.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, compactVerify, CompactSign, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { readBounded } from '../config/bounded-file.ts';
import { variableOf } from '../runner/settings.ts';

/** The armour of a private key in any of its PEM forms (PKCS#8, encrypted, RSA, EC). */
const PRIVATE_KEY_PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

export const JWS_TYPE = 'partner-conformance-manifest+jws';
export const KEY_ENV = 'CONFORMANCE_SIGNING_KEY';
export const KEY_FILE_ENV = 'CONFORMANCE_SIGNING_KEY_FILE';
export const PASSPHRASE_ENV = 'CONFORMANCE_SIGNING_KEY_PASSPHRASE';

export type SigningAlg = 'EdDSA' | 'ES256';

export interface SigningKey {
  alg: SigningAlg;
  privateKey: KeyObject;
  publicJwk: JWK;
  thumbprint: string;
  /** Where the key came from, for messages (never the key). */
  from: string;
}

export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

function algOf(key: KeyObject, from: string): SigningAlg {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  const what = key.asymmetricKeyType === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve}` : `a ${key.asymmetricKeyType} key`;
  throw new SigningKeyError(`${from} is ${what}; a pack is signed with an Ed25519 key (EdDSA) or a P-256 key (ES256)`);
}

const publicJwkOf = (key: KeyObject) => {
  const { kty, crv, x, y } = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' }) as JWK;
  return Object.fromEntries(Object.entries({ kty, crv, x, y }).filter(([, v]) => v !== undefined)) as JWK;
};

export async function signingKeyFrom(pem: string, from: string, passphrase?: string): Promise<SigningKey> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch (error) {
    throw new SigningKeyError(
      `${from} is not a readable PEM private key (${(error as { code?: string }).code ?? (error as Error).message.split('\n')[0]})`,
    );
  }
  const alg = algOf(privateKey, from);
  const publicJwk = publicJwkOf(privateKey);
  return { alg, privateKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'), from };
}

/** The certifier's key: --key FILE, else CONFORMANCE_SIGNING_KEY (the PEM itself), else CONFORMANCE_SIGNING_KEY_FILE; undefined when none is given. */
export async function loadSigningKey(keyFile: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<SigningKey | undefined> {
  const passphrase = variableOf(PASSPHRASE_ENV, env);
  const pem = variableOf(KEY_ENV, env);
  const file = keyFile ?? (pem ? undefined : variableOf(KEY_FILE_ENV, env));
  if (file) {
    const pem = readBounded(file, (what) => new SigningKeyError(`the signing key file ${file} ${what}`), 'a PEM key is a few kilobytes');
    return signingKeyFrom(pem, `the signing key file ${file}`, passphrase);
  }
  if (pem) return signingKeyFrom(pem, KEY_ENV, passphrase);
  return undefined;
}

export async function signManifest(manifestBytes: Buffer, key: SigningKey): Promise<string> {
  return new CompactSign(manifestBytes)
    .setProtectedHeader({ alg: key.alg, typ: JWS_TYPE, kid: key.thumbprint, jwk: key.publicJwk })
    .sign(key.privateKey);
}

/** A trust anchor: the certifier's public key, or the thumbprint of it they published. */
export type TrustAnchor = { publicKeyFile: string } | { thumbprint: string };

export interface SignatureCheck {
  /** The signature verifies with the embedded key (and the trusted key, when given). */
  valid: boolean;
  /** The signed payload (to compare with manifest.json byte for byte). */
  payload?: Uint8Array;
  alg?: string;
  /** Thumbprint of the key in the signature's header. */
  embeddedThumbprint?: string;
  /** true when the signing key is the trusted one; undefined without a trust anchor. */
  trusted?: boolean;
  problems: string[];
}

async function publicKeyFromFile(file: string): Promise<{ key: KeyObject; thumbprint: string }> {
  const pem = readBounded(file, (what) => new SigningKeyError(`the public key ${file} ${what}`), 'a PEM key is a few kilobytes');
  // Node derives a public key from a private one without a word: a verifier handed the signer's private key is refused, not obliged.
  if (PRIVATE_KEY_PEM.test(pem))
    throw new SigningKeyError(
      `the public key ${file} holds a private key: verify needs only the certifier's public key (openssl pkey -in KEY -pubout gives it); keep the private key with the certifier`,
    );
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new SigningKeyError(
      `the public key ${file} is not a readable PEM public key (${(error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0]})`,
    );
  }
  return { key, thumbprint: await calculateJwkThumbprint(publicJwkOf(key), 'sha256') };
}

/** Checks a compact JWS over the manifest. Throws SigningKeyError only for an unreadable trusted key (a usage error). */
export async function checkSignature(jws: string, anchor?: TrustAnchor): Promise<SignatureCheck> {
  const trusted = anchor && 'publicKeyFile' in anchor ? await publicKeyFromFile(anchor.publicKeyFile) : undefined;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws.trim());
  } catch (error) {
    return { valid: false, problems: [`manifest.jws is not a JWS: ${(error as Error).message}`] };
  }
  const problems: string[] = [];
  if (header.alg !== 'EdDSA' && header.alg !== 'ES256')
    return { valid: false, alg: header.alg, problems: [`manifest.jws: alg ${header.alg} is not EdDSA or ES256`] };
  if (!header.jwk) return { valid: false, alg: header.alg, problems: ['manifest.jws: the header carries no public key (jwk)'] };
  const embeddedThumbprint = await calculateJwkThumbprint(header.jwk, 'sha256');
  if (header.kid !== undefined && header.kid !== embeddedThumbprint)
    problems.push(`manifest.jws: kid ${header.kid} is not the thumbprint of the key in the header (${embeddedThumbprint})`);
  let payload: Uint8Array | undefined;
  try {
    const key = trusted?.key ?? (await importJWK(header.jwk, header.alg));
    payload = (await compactVerify(jws.trim(), key, { algorithms: ['EdDSA', 'ES256'] })).payload;
  } catch (error) {
    problems.push(
      `manifest.jws: the signature does not verify${trusted ? ' with the trusted public key' : ''} (${(error as Error).message})`,
    );
  }
  const expected = trusted?.thumbprint ?? (anchor && 'thumbprint' in anchor ? anchor.thumbprint.trim() : undefined);
  const isTrusted = expected === undefined ? undefined : expected === embeddedThumbprint;
  if (isTrusted === false)
    problems.push(`manifest.jws: signed with the key of thumbprint ${embeddedThumbprint}, not with the trusted key (${expected})`);
  return {
    valid: payload !== undefined && problems.length === 0,
    payload,
    alg: header.alg,
    embeddedThumbprint,
    trusted: isTrusted,
    problems,
  };
}
