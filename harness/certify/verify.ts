/**
 * `certify verify <dir>`: is this pack what the certifier signed? Checks, and names what fails:
 *   1. manifest.json reads and is a certification manifest;
 *   2. manifest.jws verifies, over exactly the bytes of manifest.json, with the trusted key (--public-key)
 *      or a key whose thumbprint is the trusted one (--thumbprint); without a trust anchor the signature is
 *      still checked and its key's thumbprint printed, but the pack is not accepted: anyone who alters a
 *      pack can sign it again with a key of their own;
 *   3. every file the manifest lists is there with its SHA-256 and size; the fetched documents' hashes
 *      agree with their files;
 *   4. no file is in the pack that the manifest does not list.
 * An unsigned pack is accepted only with --allow-unsigned, and then only as "unchanged since written,
 * as far as the hashes can tell" (its manifest can be edited along with the files).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MANIFEST_FILE, MANIFEST_FORMAT, SIGNATURE_FILE, type Manifest } from './manifest.ts';
import { checkSignature, type TrustAnchor } from './signing.ts';
import { sha256Of } from './suite-identity.ts';

export interface VerifyOptions {
  anchor?: TrustAnchor;
  allowUnsigned?: boolean;
}

export interface VerifyResult {
  accepted: boolean;
  /** What was checked and found right. */
  checks: string[];
  /** What is wrong, each naming the file. */
  problems: string[];
  /** Thumbprint of the key that signed, for out-of-band comparison. */
  thumbprint?: string;
  certifiable?: boolean;
}

function* filesUnder(dir: string, root = dir): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path, root);
    else yield relative(root, path).split('\\').join('/');
  }
}

export async function verifyPack(dir: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const checks: string[] = [];
  const problems: string[] = [];
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath))
    return { accepted: false, checks, problems: [`${MANIFEST_FILE}: missing (is ${dir} a certification pack?)`] };
  const manifestBytes = readFileSync(manifestPath);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch (error) {
    manifest = undefined as unknown as Manifest;
    problems.push(`${MANIFEST_FILE}: altered: not valid JSON (${(error as Error).message})`);
  }
  if (manifest && manifest.format !== MANIFEST_FORMAT)
    problems.push(`${MANIFEST_FILE}: altered or foreign: format is ${JSON.stringify(manifest.format)}, not ${MANIFEST_FORMAT}`);

  let thumbprint: string | undefined;
  const jwsPath = join(dir, SIGNATURE_FILE);
  if (existsSync(jwsPath)) {
    const signature = await checkSignature(readFileSync(jwsPath, 'utf8'), options.anchor);
    thumbprint = signature.embeddedThumbprint;
    problems.push(...signature.problems);
    if (signature.payload && !Buffer.from(signature.payload).equals(manifestBytes))
      problems.push(`${MANIFEST_FILE}: altered: its bytes differ from the manifest that ${SIGNATURE_FILE} signs`);
    else if (signature.valid)
      checks.push(`${SIGNATURE_FILE}: ${signature.alg} signature over ${MANIFEST_FILE} verifies; signing key thumbprint ${thumbprint}`);
    if (manifest?.signing && (!manifest.signing.signed || manifest.signing.thumbprint !== thumbprint))
      problems.push(`${MANIFEST_FILE}: altered: its signing entry does not name the key that signed it`);
    if (signature.valid && signature.trusted)
      checks.push(
        `the signing key is the trusted one (${options.anchor && 'publicKeyFile' in options.anchor ? '--public-key' : '--thumbprint'})`,
      );
    if (signature.valid && signature.trusted === undefined) {
      problems.push(
        `not authenticated: no trusted key was given. The signature only shows that whoever holds the key of thumbprint ${thumbprint} signed this pack; compare that thumbprint with the one the certifier published, then run again with --thumbprint ${thumbprint} (or --public-key FILE)`,
      );
    }
  } else if (manifest?.signing?.signed) {
    problems.push(`${SIGNATURE_FILE}: missing, though ${MANIFEST_FILE} says the pack was signed`);
  } else if (!options.allowUnsigned) {
    problems.push(
      `the pack is not signed (${manifest?.signing && !manifest.signing.signed ? manifest.signing.why : `no ${SIGNATURE_FILE}`}): nothing proves who wrote it or that ${MANIFEST_FILE} is unchanged; --allow-unsigned checks the hashes only`,
    );
  } else {
    checks.push(`the pack is not signed: only the hashes are checked, and ${MANIFEST_FILE} itself could have been edited`);
  }

  if (manifest?.files) {
    for (const [name, expected] of Object.entries(manifest.files)) {
      const path = join(dir, name);
      if (!existsSync(path)) {
        problems.push(`${name}: missing`);
        continue;
      }
      const bytes = readFileSync(path);
      const sha256 = sha256Of(bytes);
      if (sha256 !== expected.sha256 || bytes.length !== expected.bytes)
        problems.push(
          `${name}: altered: sha256 ${sha256} (${bytes.length} bytes), the manifest says ${expected.sha256} (${expected.bytes} bytes)`,
        );
      else checks.push(`${name}: sha256 matches`);
    }
    for (const doc of manifest.documents ?? []) {
      if (doc.file && manifest.files[doc.file]?.sha256 !== doc.sha256)
        problems.push(
          `${MANIFEST_FILE}: altered: document ${doc.url} has sha256 ${doc.sha256}, its file ${doc.file} ${manifest.files[doc.file]?.sha256 ?? 'is not listed'}`,
        );
    }
    const listed = new Set([...Object.keys(manifest.files), MANIFEST_FILE, SIGNATURE_FILE]);
    for (const name of filesUnder(dir))
      if (!listed.has(name)) problems.push(`${name}: not in the manifest (added to the pack after it was written)`);
  } else if (manifest) {
    problems.push(`${MANIFEST_FILE}: altered: it lists no files`);
  }
  return { accepted: problems.length === 0, checks, problems, thumbprint, certifiable: manifest?.verdict?.certifiable };
}
