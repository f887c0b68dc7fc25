/**
 * Media types compared as RFC 9110 (8.3.1) compares them: the type and subtype, case-insensitive, and
 * the parameters apart (`application/json;charset=UTF-8` is application/json). Every comparison of a
 * Content-Type or of a served document's media key goes through here, so an answer and the document
 * that describes it are read alike.
 */
import type { CapturedResponse } from './http.ts';

// RFC 9110 5.6.2: a token is one or more of these characters.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})\\s*(?:;|$)`);

/** "type/subtype" in lower case, without parameters; undefined for a text that is no media type. */
export function mediaEssence(text: string | undefined): string | undefined {
  const match = text === undefined ? null : MEDIA_TYPE.exec(text);
  return match ? `${match[1]}/${match[2]}`.toLowerCase() : undefined;
}

/** The answer's media type (its Content-Type without parameters), or undefined. */
export const answerMedia = (res: CapturedResponse): string | undefined => mediaEssence(res.headers['content-type']);

/** application/json, or a structured +json type (RFC 6839: the suffix may follow any type). */
export function isJsonMedia(text: string | undefined): boolean {
  const essence = mediaEssence(text);
  return essence !== undefined && (essence === 'application/json' || essence.endsWith('+json'));
}

/** An answer labelled JSON. */
export const isJsonLabelled = (res: CapturedResponse): boolean => isJsonMedia(res.headers['content-type']);

/** An answer labelled JSON whose body parsed. */
export const isJsonAnswer = (res: CapturedResponse): boolean => isJsonLabelled(res) && res.json !== undefined;

/**
 * Whether `media` is one that `range` names: the same type and subtype, or one within a wildcard range
 * (`text/*`, or the range of every type). Both may carry parameters; neither's parameters decide.
 */
export function mediaMatches(range: string, media: string | undefined): boolean {
  const listed = mediaEssence(range);
  const sent = mediaEssence(media);
  if (listed === undefined || sent === undefined) return false;
  if (listed === '*/*') return true;
  return listed.endsWith('/*') ? sent.startsWith(listed.slice(0, -1)) : listed === sent;
}
