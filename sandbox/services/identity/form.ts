/**
 * Reading the userinfo form (spec 4.2: "form fields (application/x-www-form-urlencoded) client_id and
 * client_secret"), as named rules in the order they are checked: the media type (415), then each field
 * given once (400). Field order does not matter, and fields beyond the two are ignored.
 */
import type { Incoming } from '../../exchange.ts';
import { namedRules } from '../../faults/modifiers.ts';
import { refuse, type Refusal } from './answers.ts';

export const FORM = 'application/x-www-form-urlencoded';
export const KNOWN_FIELDS = ['client_id', 'client_secret'];

/** A request and the name/value pairs of its body, read as a form. */
export interface FormRead {
  request: Incoming;
  pairs: Array<[string, string]>;
}

export const readForm = (request: Incoming): FormRead => ({ request, pairs: [...new URLSearchParams(request.text)] });

export const invalid = (status: number, code: string, message: string): Refusal => refuse(status, code, 'invalid_request', message);

export const FORM_RULES = namedRules<(read: FormRead) => Refusal | undefined>()({
  'body.form': ({ request }) =>
    request.contentType !== FORM ? invalid(415, 'UNSUPPORTED_MEDIA_TYPE', `the body must be ${FORM}`) : undefined,
  'form.once': ({ pairs }) => {
    const seen = new Set<string>();
    for (const [name] of pairs) {
      if (seen.has(name)) return invalid(400, 'VALIDATION_ERROR', `the form field ${name} is given more than once`);
      seen.add(name);
    }
    return undefined;
  },
  // 4.2 lists the form's two fields and says nothing of others: an extra field is ignored.
  'form.known': () => undefined,
});
