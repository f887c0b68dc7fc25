/**
 * Spec part 4: "All bodies are JSON unless stated." Every answer that carries a body says so in its
 * Content-Type (application/json, or a structured `+json` type such as application/problem+json) and
 * the body parses. An answer without a body is not judged here: where a body is documented (a 200
 * portfolio, a 201 contract record) the check of that answer asks for it.
 */
import type { CapturedResponse } from '../request/http.ts';
import { failure, type Failure } from './failure.ts';
import { isJsonMedia } from '../request/media-type.ts';

/** A body, when there is one, is JSON and labelled JSON. */
export function jsonWhereBody(res: CapturedResponse, requirement: string): Failure[] {
  if (res.rawBody === '') return [];
  const out: Failure[] = [];
  const media = res.headers['content-type'];
  if (!isJsonMedia(media)) {
    out.push(
      failure(
        requirement,
        `Content-Type application/json on an answer with a body (spec 4: all bodies are JSON)`,
        media ? `Content-Type ${media}` : 'no Content-Type',
      ),
    );
  }
  if (res.jsonError)
    out.push(
      failure(
        requirement,
        'a body that is JSON (spec 4: all bodies are JSON)',
        `a body that does not parse (${res.jsonError.split('\n')[0]})`,
      ),
    );
  return out;
}
