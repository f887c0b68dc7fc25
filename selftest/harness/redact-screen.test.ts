/**
 * The redactor's screen (harness/secrets/redact.ts, holdsTextual): for secrets it screens, a text goes to the
 * full patterns only when, decoded, it holds the secret's tail or its hex form. A secret written with
 * any mix of its characters' forms, right after any escape that could swallow its start, must still be
 * found and masked, exactly as the full patterns alone would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../harness/secrets/redact.ts';

const SCREENABLE_CHARS = [...'ABCDEFabcdefuxz0123456789!#$()*+,-./:<=>?@[]^_`{|}~'];
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** One character in one of the forms the full patterns accept. */
function formOf(ch: string, form: number): string {
  const code = ch.charCodeAt(0);
  switch (form % 9) {
    case 1:
      return `%${hex2(code).toUpperCase()}`;
    case 2:
      return `%${hex2(code)}`;
    case 3:
      return `\\u${code.toString(16).padStart(4, '0')}`;
    case 4:
      return `\\\\u${code.toString(16).padStart(4, '0').toUpperCase()}`;
    case 5:
      return `&#${code};`;
    case 6:
      return `&#x${code.toString(16)};`;
    case 7:
      return ch === '/' ? '\\/' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch;
    default:
      return ch;
  }
}

const secret = fc.array(fc.constantFrom(...SCREENABLE_CHARS), { minLength: 4, maxLength: 24 }).map((chars) => chars.join(''));
/** What may stand just before the secret: escape starts that could take its first characters. */
const before = fc.constantFrom('', '%', '%4', '\\', '\\\\', '\\u', '\\u00', '&', '&#', '&#x', 'x=', '"');

describe('the redactor screen', () => {
  it('finds a secret in any mix of its forms after any escape start, as the full patterns do', () => {
    fc.assert(
      fc.property(
        secret,
        fc.array(fc.nat(8), { minLength: 24, maxLength: 24 }),
        before,
        fc.string({ maxLength: 20 }),
        (s, forms, lead, tail) => {
          const redactor = new Redactor();
          redactor.register(s);
          const written = [...s].map((ch, i) => formOf(ch, forms[i])).join('');
          const text = `${lead}${written}${tail}`;
          expect(redactor.holdsSecret(text), text).toBe(true);
          expect(redactor.redact(text)).not.toContain(written);
        },
      ),
      { numRuns: 100, seed: 20261126 },
    );
  });

  it('finds a secret of digits that a numeric entity around it swallows whole (`&#` before it, `;` after it)', () => {
    for (const s of ['#12345678901', '#x0000000041ab', '#0065']) {
      const redactor = new Redactor();
      redactor.register(s);
      const text = `x=&${s};`;
      expect(redactor.holdsSecret(text), text).toBe(true);
      expect(redactor.redact(text), text).not.toContain(s);
    }
  });

  it('finds the hex form of a secret in either case', () => {
    const redactor = new Redactor();
    const s = 'abcdefABCDEF0123456789';
    redactor.register(s);
    const hex = Buffer.from(s).toString('hex');
    expect(redactor.holdsSecret(`id=${hex.toUpperCase()};`)).toBe(true);
    expect(redactor.holdsSecret(`id=${hex.slice(2)}`)).toBe(false);
  });

  it('lets a text without the secret through untouched', () => {
    const redactor = new Redactor();
    redactor.register('plainAlnumSecret0123456789');
    const text = '{"status":"ok","items":[1,2,3],"note":"plainAlnumSecret012345678 is not it"}';
    expect(redactor.holdsSecret(text)).toBe(false);
    expect(redactor.redact(text)).toBe(text);
  });
});
