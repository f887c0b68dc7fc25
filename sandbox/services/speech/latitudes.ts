/**
 * The speech latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { asProblem, withCharset, withoutHeader } from '../../faults/answer-edits.ts';
import { latitudesOf, never, withHeader, withoutBody, type ModifierLatitude } from '../../faults/modifiers.ts';
import { errorAnswer, statusName, type SpeechAnswer } from './answers.ts';
import type { SpeechCall } from './call.ts';
import { AUDIENCE, audienceRule, bodyHashRule, type Presented } from './claim-rules.ts';
import type { SpeechShape } from './handler.ts';
import { LOOKUP_RULES } from './token-rules.ts';
import { isTokenRule } from './verify.ts';

const latitude = latitudesOf<SpeechShape>('speech');

const ERRORS_NOT_SHOWN =
  'Error bodies and code values of the business-banking operations, and errors of the speech and userinfo calls: not shown.';
const AUD = 'aud | string | service or set of services the token is meant for';
const HASH = 'x-content-sha256 | string, base16 (hex) | SHA-256 hash of the request';
const EXP = 'exp | integer, Unix time | after this time the token is invalid';
const NBF = 'nbf | integer, Unix time | time from which the token is valid';
const IAT = 'iat | integer, Unix time | time of issue';
const BODY_NOT_SHOWN = 'Body of the recognize call: not shown.';

/** Five minutes: the clock skew many JWT libraries tolerate by default (Microsoft.IdentityModel's ClockSkew). */
const WIDE_LEEWAY_SECONDS = 300;

const refusal = (a: SpeechAnswer) => a.status >= 400;
/** 100 ms of 16 kHz 16-bit mono audio. */
const SHORTEST_AUDIO_BYTES = 3200;

/** The base64 audio of a recognize request, if it has one. */
function audioOf(call: SpeechCall): string | undefined {
  try {
    const content = (JSON.parse(call.body.toString('utf8')) as { audio?: { content?: unknown } } | null)?.audio?.content;
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

/** Every service name an aud holds: arrays at any depth, and a string of names separated by spaces or commas. */
const namesIn = (aud: unknown): unknown[] =>
  Array.isArray(aud) ? aud.flatMap(namesIn) : typeof aud === 'string' ? aud.split(/[\s,]+/) : [aud];

export const speechLatitudes: ModifierLatitude<SpeechShape>[] = [
  latitude(
    'spe-lat-bad-token-403',
    [ERRORS_NOT_SHOWN],
    'a token that is sent but does not verify is refused 403 Forbidden; only a call without a token gets 401',
    {
      answer: (a, call) =>
        isTokenRule(a.refusedBy) && a.status === 401 && a.refusedBy !== 'authorization.present' && call.headers.authorization
          ? errorAnswer(403, a.facts!.reason, a.refusedBy!)
          : a,
    },
    'Part 7 shows no speech error, so no status is fixed for a refused token; 403 is how many gateways answer a credential that does not verify.',
  ),
  latitude(
    'spe-lat-refusal-no-body',
    [ERRORS_NOT_SHOWN],
    'every refusal has no body and no Content-Type (the status and WWW-Authenticate say it all)',
    { answer: (a) => (refusal(a) ? withoutBody(a) : a) },
    'Part 7 shows no speech error body.',
  ),
  latitude(
    'spe-lat-refusal-plain-text',
    [ERRORS_NOT_SHOWN],
    'every refusal is a line of plain text (text/plain), as a gateway in front of the service writes it',
    {
      answer: (a) =>
        refusal(a)
          ? { ...withHeader(a, 'content-type', 'text/plain; charset=utf-8'), body: `${a.status} ${a.facts?.reason ?? 'refused'}\n` }
          : a,
    },
    'Part 7 shows no speech error body; part 4 makes the bodies it describes JSON, and this is not one of them.',
  ),
  latitude(
    'spe-lat-short-audio-refused',
    [BODY_NOT_SHOWN],
    'a recognize call whose token verified but whose audio is shorter than 100 ms is answered 400 (the recognizer needs at least 100 ms)',
    {
      answer: (a, call) => {
        const audio = call.kind === 'recognize' && a.status === 200 ? audioOf(call) : undefined;
        return audio !== undefined && Buffer.from(audio, 'base64').length < SHORTEST_AUDIO_BYTES
          ? errorAnswer(400, 'the audio is shorter than 100 ms', 'audio.length')
          : a;
      },
    },
    "The spec shows the call's headers, not its body: what the recognizer accepts as audio is the service's own, so a call with a good token may be refused for its audio.",
  ),
  latitude(
    'spe-lat-hash-in-array',
    [HASH],
    'a lenient verifier: x-content-sha256 given as an array that holds the one right hash is taken as that hash',
    {
      checks: {
        'x-content-sha256': bodyHashRule({ textOf: (claimed) => (Array.isArray(claimed) && claimed.length === 1 ? claimed[0] : claimed) }),
      },
    },
    '2.1 gives the type of the claim a client writes; a service that reads the one hash out of an array still binds the token to the body.',
  ),
  latitude(
    'spe-lat-aud-any-set',
    [AUD],
    'a lenient verifier: aud names the service when any name in it is the service, in an array (nested or not) or a string of names separated by spaces or commas',
    { checks: { aud: audienceRule((aud) => namesIn(aud).includes(AUDIENCE)) } },
    '2.1 lets a token be meant for a set of services and does not say how the set is written.',
  ),
  latitude(
    'spe-lat-no-leeway',
    [EXP, NBF],
    'no clock leeway: a token is refused from the second after exp, before nbf, and when issued (iat) after now',
    {
      checks: {
        'exp.expiry': ({ claims, now }: Presented) =>
          claims.exp !== undefined && now > Number(claims.exp) ? 'the token has expired' : undefined,
        'nbf.window': ({ claims, now }: Presented) =>
          claims.nbf !== undefined && now < Number(claims.nbf) ? 'the token is not valid yet (nbf)' : undefined,
        'iat.future': ({ claims, now }: Presented) =>
          claims.iat !== undefined && Number(claims.iat) > now ? 'the token is issued in the future (iat)' : undefined,
      },
    },
    'The spec states no leeway; none at all is its most literal reading.',
  ),
  latitude(
    'spe-lat-kid-optional',
    ['kid | string | the API key <API_KEY>'],
    'a service with one API key verifies a token without kid with that key (a kid that is given must still be the API key)',
    {
      checks: {
        'header.kid': never,
        'key.lookup': (keys: ReadonlyMap<string, Buffer>, kid: unknown) =>
          kid === undefined && keys.size === 1 ? [...keys.values()][0] : LOOKUP_RULES['key.lookup'](keys, kid),
      },
    },
    '2.1 has the client write kid; it does not say that a service refuses a token without one, and the signature still binds the token to the one secret.',
  ),
  latitude(
    'spe-lat-leeway-5-minutes',
    [EXP, NBF, IAT],
    'a wide clock leeway: exp, nbf and iat are judged with five minutes of tolerance for the clocks of client and service',
    {
      checks: {
        'exp.expiry': ({ claims, now }: Presented) =>
          claims.exp !== undefined && now > Number(claims.exp) + WIDE_LEEWAY_SECONDS ? 'the token has expired' : undefined,
        'nbf.window': ({ claims, now }: Presented) =>
          claims.nbf !== undefined && now < Number(claims.nbf) - WIDE_LEEWAY_SECONDS ? 'the token is not valid yet (nbf)' : undefined,
        'iat.future': ({ claims, now }: Presented) =>
          claims.iat !== undefined && Number(claims.iat) > now + WIDE_LEEWAY_SECONDS
            ? 'the token is issued in the future (iat)'
            : undefined,
      },
    },
    'The spec states no leeway, and two machines never share one clock; five minutes is the default skew of common JWT libraries. A token an hour out of its window is still refused.',
  ),
  latitude(
    'spe-lat-exp-optional',
    [EXP],
    'a token without exp is accepted: it is refused only when it carries an exp that has passed',
    { checks: { 'exp.required': never } },
    '2.1 says what exp means when a token has one, not that a service refuses a token without it (RFC 7519 makes every registered claim optional).',
  ),
  latitude(
    'spe-lat-iat-unchecked',
    [IAT],
    'iat is read as information only: a token issued in the future is not refused for it (exp and nbf still bound it)',
    { checks: { 'iat.future': never } },
    '2.1 gives iat as the time of issue and no rule on it; exp and nbf are the claims that say when the token is valid.',
  ),
  latitude(
    'spe-lat-typ-unchecked',
    ['typ | string | JWT'],
    'the header\'s typ is not looked at: a correctly signed token with typ "JWS", or none, is verified like any other',
    { checks: { 'header.typ': never } },
    '2.1 has the client write typ JWT; RFC 7515 section 4.1.9 leaves typ to the application, and a service that knows what it verifies may ignore it. The signature still covers the header as sent.',
  ),
  latitude(
    'spe-lat-hash-lower-case-only',
    [HASH],
    'the hash is compared as text with the lower-case hex digest the service computes: the right hash in upper-case hex is refused',
    { checks: { 'x-content-sha256': bodyHashRule({ matches: (claimed, hex) => claimed === hex }) } },
    '2.1 names the encoding (base16, hex), not its letter case; a service that compares the claim with the digest as it prints it is still comparing the hash of the request.',
  ),
  latitude(
    'spe-lat-json-charset',
    ['All bodies are JSON unless stated.'],
    'every JSON answer, the recognition and the refusals, is labelled application/json; charset=utf-8',
    { answer: (a) => withCharset(a) },
    'A charset parameter does not change the media type (RFC 8259 section 11: the parameter has no effect, and many frameworks write it).',
  ),
  latitude(
    'spe-lat-other-recognition-shape',
    [BODY_NOT_SHOWN],
    'an accepted call is answered with the recognition in another JSON shape: { "text": ..., "confidence": ..., "duration": ... }',
    {
      answer: (a) => {
        if (a.status !== 200 || a.refusedBy !== undefined) return a;
        const results =
          (
            a.body as
              | { results?: Array<{ alternatives?: Array<{ transcript?: string; confidence?: number }>; end_time?: string }> }
              | undefined
          )?.results ?? [];
        const best = results[0]?.alternatives?.[0];
        return { ...a, body: { text: best?.transcript ?? '', confidence: best?.confidence ?? 0, duration: results[0]?.end_time ?? '0s' } };
      },
    },
    "The spec shows the recognize call's headers only; what a recognition answers is the service's own (the vendor's RecognizeResponse is SPE-RSP-001's policy).",
  ),
  latitude(
    'spe-lat-refusal-problem-json',
    [ERRORS_NOT_SHOWN],
    'every refusal is RFC 9457 problem details (application/problem+json)',
    { answer: (a) => (refusal(a) ? asProblem(a, statusName(a.status)) : a) },
    'Part 7 shows no speech error body; problem details are JSON (a +json media type).',
  ),
  latitude(
    'spe-lat-no-challenge',
    [ERRORS_NOT_SHOWN],
    'a 401 carries no WWW-Authenticate challenge',
    { answer: (a) => (a.status === 401 ? withoutHeader(a, 'www-authenticate') : a) },
    "Part 7 shows no speech error; how a refusal is written (RFC 6750's challenge included) is not stated.",
  ),
];
