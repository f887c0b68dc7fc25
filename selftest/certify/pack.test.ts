/**
 * The pack: written from a run's summary, signed, and checked by verify, which accepts it only with a
 * trusted key and names every file that was altered, removed or added.
 */
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, manifestBytes, type Manifest, type ManifestInput } from '../../harness/certify/manifest.ts';
import { maskedTargetFile } from '../../harness/certify/masked-target.ts';
import { PackFolderError, preparePackFolder, writePack } from '../../harness/certify/pack.ts';
import { loadSigningKey, signingKeyFrom, SigningKeyError, signManifest, type SigningKey } from '../../harness/certify/signing.ts';
import { sha256Of } from '../../harness/certify/suite-identity.ts';
import { certificationVerdict } from '../../harness/certify/verdict.ts';
import { verifyPack } from '../../harness/certify/verify.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import type { ExchangeRecord } from '../../harness/report/exchange-record.ts';
import { harEntry, harText } from '../../harness/report/har.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { AREAS } from '../../harness/areas.ts';
import { tempDir } from '../helpers.ts';
import { failedRecord, record, summary } from './_records.ts';

const SECRET = 'PCMARKunitsecret0123456789abcdef';

function keyPair(type: 'ed25519' | 'ec' | 'rsa') {
  const options = type === 'ec' ? { namedCurve: 'P-256' } : type === 'rsa' ? { modulusLength: 2048 } : {};
  const { privateKey, publicKey } = generateKeyPairSync(
    type as 'ed25519',
    { ...options, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } } as never,
  ) as unknown as { privateKey: string; publicKey: string };
  const dir = tempDir('pc-keys-');
  writeFileSync(join(dir, 'key.pem'), privateKey);
  writeFileSync(join(dir, 'pub.pem'), publicKey);
  return { privateKey, publicKeyFile: join(dir, 'pub.pem'), keyFile: join(dir, 'key.pem') };
}

function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) =>
    readdirSync(d).forEach((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : out.push(relative(dir, join(d, n)))));
  walk(dir);
  return out.sort();
}

/** The run's one exchange: the request the failure is about, as the HTTP client records it. */
const EXCHANGE: ExchangeRecord = {
  id: 'w.1',
  area: 'insurance',
  operation: 'POST /create',
  startedAt: Date.parse('2026-01-01T00:00:01.000Z'),
  durationMs: 12,
  pacedMs: 3,
  waitMs: 10,
  receiveMs: 2,
  request: {
    method: 'POST',
    url: 'https://x.test/insurance/create',
    headers: [['authorization', 'Bearer ***']],
    body: { text: '{"surrender":[]}', bytes: 16 },
  },
  response: {
    status: 201,
    headers: [['content-type', 'application/json']],
    body: { text: '{"id":1,"note":"</script><b>x</b>"}', bytes: 36 },
  },
};

/** A pack of a run with one failure, its exchange, one fetched document and a target file with a secret. */
async function makePack(key?: SigningKey): Promise<string> {
  const runDir = tempDir('pc-run-');
  mkdirSync(join(runDir, 'fetched'));
  writeFileSync(join(runDir, 'fetched', 'abc-openapi.yaml'), 'openapi: 3.0.3\n');
  mkdirSync(join(runDir, 'evidence'));
  writeFileSync(
    join(runDir, 'evidence', 'insurance.har'),
    harText({ name: 'partner-conformance', version: '0.0.0' }, 'unit', [JSON.stringify(harEntry(EXCHANGE, 'e1'))]),
  );
  const targetFile = join(runDir, 'target.yaml');
  writeFileSync(
    targetFile,
    `name: unit\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${SECRET}", tokenWithoutScope: "\${NO_SCOPE}" }\n`,
  );
  const redactor = new Redactor();
  redactor.register(SECRET);
  const s = summary([
    record('INS-LIM-001', { evidence: ['evidence/insurance.har#e1'] }),
    failedRecord('INS-LIM-003', 'surrender array of 1000 item(s) is accepted', {
      evidence: ['evidence/insurance.har#e1'],
      controls: ['evidence/insurance.har#e1'],
    }),
  ]);
  s.evidence = {
    format: 'HAR 1.2',
    bodyCapBytes: 65536,
    files: [{ area: 'insurance', file: 'evidence/insurance.har', entries: 1, bytes: 1 }],
  };
  s.documents = [{ url: 'https://x.test/openapi.yaml', sha256: sha256Of('openapi: 3.0.3\n'), bytes: 15, file: 'fetched/abc-openapi.yaml' }];
  const verdict = certificationVerdict({ summary: s, registry: requirements(), areas: ['insurance'], allAreas: AREAS });
  const manifest: ManifestInput = {
    suite: { name: 'partner-conformance', version: '0.0.0', requirementsSha256: 'x' },
    spec: { file: 'spec/partner-interfaces.md', sha256: 'y', bytes: 1, from: 'unit' },
    target: {
      name: 'unit',
      kind: 'staging',
      areas: ['insurance'],
      vendorConventions: false,
      strictPolicy: false,
      source: 'target.yaml',
      file: maskedTargetFile(targetFile, redactor),
    },
    run: { depth: 'quick', runs: 5, seed: 1, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:01:00.000Z' },
    waivers: null,
    documents: s.documents,
    counts: s.counts,
    verdict,
    signing: key ? { signed: true, alg: key.alg, thumbprint: key.thumbprint } : { signed: false, why: 'no key' },
  };
  const dir = join(tempDir('pc-pack-'), 'certification');
  preparePackFolder(dir);
  await writePack({ dir, summary: s, runReportDir: runDir, manifest, key });
  return dir;
}

describe('a signed pack', () => {
  const ed = keyPair('ed25519');
  let key: SigningKey;
  let pack: string;
  beforeAll(async () => {
    key = (await loadSigningKey(ed.keyFile, {}))!;
    pack = await makePack(key);
  });

  it('holds the report files, the fetched document, the evidence, the manifest and its signature, and no secret', () => {
    expect(filesOf(pack)).toEqual([
      'evidence/insurance.har',
      'fetched/abc-openapi.yaml',
      'junit.xml',
      'manifest.json',
      'manifest.jws',
      'report.html',
      'results.json',
    ]);
    const manifest = JSON.parse(readFileSync(join(pack, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.files).sort()).toEqual([
      'evidence/insurance.har',
      'fetched/abc-openapi.yaml',
      'junit.xml',
      'report.html',
      'results.json',
    ]);
    expect(manifest.files['evidence/insurance.har'].sha256).toBe(sha256Of(readFileSync(join(pack, 'evidence/insurance.har'))));
    expect(manifest.target.file.services.insurance).toEqual({ url: 'https://x.test', token: '***', tokenWithoutScope: '${NO_SCOPE}' });
    expect(manifest.verdict.certifiable).toBe(false);
    expect(manifest.signing).toEqual({ signed: true, alg: 'EdDSA', thumbprint: key.thumbprint });
    for (const file of filesOf(pack)) expect(readFileSync(join(pack, file), 'utf8')).not.toContain(SECRET);
  });

  it("verify accepts it with the certifier's public key, or with the published thumbprint", async () => {
    expect(await verifyPack(pack, { anchor: { publicKeyFile: ed.publicKeyFile } })).toMatchObject({
      accepted: true,
      problems: [],
      thumbprint: key.thumbprint,
      certifiable: false,
    });
    expect((await verifyPack(pack, { anchor: { thumbprint: key.thumbprint } })).accepted).toBe(true);
  });

  it("verify refuses the certifier's private key given as the trusted public key (it once derived the public key without a word)", async () => {
    await expect(verifyPack(pack, { anchor: { publicKeyFile: ed.keyFile } })).rejects.toThrow(
      `the public key ${ed.keyFile} holds a private key: verify needs only the certifier's public key`,
    );
  });

  it('verify without a trusted key checks everything but does not accept, and names the thumbprint to compare', async () => {
    const result = await verifyPack(pack);
    expect(result.accepted).toBe(false);
    expect(result.problems).toEqual([
      expect.stringContaining(
        `not authenticated: no trusted key was given. The signature only shows that whoever holds the key of thumbprint ${key.thumbprint} signed this pack`,
      ),
    ]);
  });

  it.each([
    'report.html',
    'results.json',
    'junit.xml',
    'fetched/abc-openapi.yaml',
    'evidence/insurance.har',
    'manifest.json',
    'manifest.jws',
  ])('changing one byte of %s makes verify fail and name it', async (file) => {
    const copy = join(tempDir('pc-tamper-'), 'pack');
    cpSync(pack, copy, { recursive: true });
    const path = join(copy, file);
    const bytes = readFileSync(path);
    const at = file === 'manifest.jws' ? bytes.length - 10 : Math.floor(bytes.length / 2);
    bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
    writeFileSync(path, bytes);
    const result = await verifyPack(copy, { anchor: { publicKeyFile: ed.publicKeyFile } });
    expect(result.accepted).toBe(false);
    expect(result.problems.join('\n')).toContain(file);
  });

  it('names a file removed from the pack and a file added to it', async () => {
    const copy = join(tempDir('pc-tamper-'), 'pack');
    cpSync(pack, copy, { recursive: true });
    rmSync(join(copy, 'junit.xml'));
    writeFileSync(join(copy, 'extra.txt'), 'x');
    const { problems } = await verifyPack(copy, { anchor: { thumbprint: key.thumbprint } });
    expect(problems).toEqual(['junit.xml: missing', 'extra.txt: not in the manifest (added to the pack after it was written)']);
  });

  it('a pack altered and signed again with another key fails against the trusted key', async () => {
    const copy = join(tempDir('pc-tamper-'), 'pack');
    cpSync(pack, copy, { recursive: true });
    appendFileSync(join(copy, 'report.html'), '<!-- forged -->');
    const other = await signingKeyFrom(keyPair('ed25519').privateKey, 'other');
    const old = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as Manifest;
    const html = readFileSync(join(copy, 'report.html'));
    const forged = buildManifest(
      {
        ...old,
        verdict: { ...old.verdict, requirements: [], areas: [], certifiable: true },
        signing: { signed: true, alg: 'EdDSA', thumbprint: other.thumbprint },
      },
      { ...old.files, 'report.html': { sha256: sha256Of(html), bytes: html.length } },
    );
    const bytes = manifestBytes(forged);
    writeFileSync(join(copy, 'manifest.json'), bytes);
    writeFileSync(join(copy, 'manifest.jws'), await signManifest(bytes, other));
    const result = await verifyPack(copy, { anchor: { publicKeyFile: ed.publicKeyFile } });
    expect(result.accepted).toBe(false);
    expect(result.problems.join('\n')).toContain('the signature does not verify with the trusted public key');
    expect((await verifyPack(copy, { anchor: { thumbprint: key.thumbprint } })).problems.join('\n')).toContain(
      `signed with the key of thumbprint ${other.thumbprint}, not with the trusted key`,
    );
  });
});

describe('signing keys', () => {
  it('signs with ES256 for a P-256 key, and verify accepts it', async () => {
    const ec = keyPair('ec');
    const key = (await loadSigningKey(undefined, { CONFORMANCE_SIGNING_KEY: ec.privateKey }))!;
    expect(key.alg).toBe('ES256');
    const pack = await makePack(key);
    expect((await verifyPack(pack, { anchor: { publicKeyFile: ec.publicKeyFile } })).accepted).toBe(true);
  });

  it('refuses an RSA key and an unreadable one with a short message, never the key', async () => {
    const rsa = keyPair('rsa');
    await expect(loadSigningKey(rsa.keyFile, {})).rejects.toThrow(
      /is a rsa key; a pack is signed with an Ed25519 key \(EdDSA\) or a P-256 key \(ES256\)/,
    );
    await expect(loadSigningKey(undefined, { CONFORMANCE_SIGNING_KEY: 'not a key' })).rejects.toBeInstanceOf(SigningKeyError);
    await expect(loadSigningKey(undefined, { CONFORMANCE_SIGNING_KEY_FILE: '/nonexistent/key.pem' })).rejects.toThrow(
      'the signing key file /nonexistent/key.pem cannot be read (ENOENT)',
    );
  });

  it('without a key the pack is unsigned, says so, and verify accepts it only with allowUnsigned', async () => {
    const pack = await makePack();
    expect(filesOf(pack)).not.toContain('manifest.jws');
    expect(readFileSync(join(pack, 'report.html'), 'utf8')).toContain('<b>unsigned</b>: no key');
    expect((await verifyPack(pack)).problems).toEqual([expect.stringContaining('the pack is not signed (no key)')]);
    expect((await verifyPack(pack, { allowUnsigned: true })).accepted).toBe(true);
  });
});

describe('report.html', () => {
  it('is one self-contained file: nothing is fetched, and its policy forbids fetching', async () => {
    const html = readFileSync(join(await makePack(), 'report.html'), 'utf8');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    );
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(/i);
    expect(html).toContain('NOT CERTIFIABLE');
    expect(html).toContain('Reproduce: curl -sS -i -X POST');
    // The mission is insurance: its sections only.
    expect(html).toMatch(/<h2 id="coverage">Coverage by spec section<\/h2>[\s\S]*<td>§2\.5<\/td>[\s\S]*<td><b>all<\/b><\/td>/);
    expect(html).not.toContain('<td>§2.1</td>');
  });

  it("carries each test's exchanges as data the page shows on opening, which no answer can break out of", async () => {
    const html = readFileSync(join(await makePack(), 'report.html'), 'utf8');
    expect(html).toContain(
      '<details class="exchanges" data-evidence="evidence/insurance.har#e1" data-controls="evidence/insurance.har#e1"><summary>exchanges (1, 1 control)',
    );
    const data = /<script type="application\/json" id="evidence-data">([^<]*)<\/script>/.exec(html)?.[1];
    expect(data).toBeDefined();
    const shown = JSON.parse(data!)['evidence/insurance.har#e1'];
    expect(shown.request).toBe('POST https://x.test/insurance/create\nauthorization: Bearer ***\n\n{"surrender":[]}');
    expect(shown.response).toBe('HTTP 201\ncontent-type: application/json\n\n{"id":1,"note":"</script><b>x</b>"}');
    expect(html).not.toContain('<b>x</b>');
  });
});

describe('the pack folder', () => {
  it('is emptied when it holds an earlier pack, and refused when it holds anything else', () => {
    const dir = tempDir('pc-out-');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(() => preparePackFolder(dir)).toThrow(PackFolderError);
    writeFileSync(join(dir, 'manifest.json'), '{}');
    preparePackFolder(dir);
    expect(readdirSync(dir)).toEqual([]);
  });
});
