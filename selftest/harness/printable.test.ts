/**
 * What a target or a file controls is printed escaped: every control character a terminal obeys (ESC, CR,
 * BEL, backspace, the other C0 and C1 controls) and every bidi override shown as an escape, in the text
 * reports as on the console; report.html escapes as HTML does and shows the same escapes; junit.xml and
 * the JSON files carry no raw control character either, and the JSON files keep the same value.
 */
import { describe, expect, it } from 'vitest';
import { esc } from '../../harness/certify/html/html.ts';
import { describeResponse } from '../../harness/checks/failure.ts';
import { escapeConsole } from '../../harness/cli/escaped-console.ts';
import { printable, printableJson, printableLine } from '../../harness/text/printable.ts';
import { escapeXml } from '../../harness/report/junit.ts';
import { titleOf } from '../../harness/spec/requirements.ts';
import { cannedResponse, OBEYED_CONTROLS as OBEYED, RAW_CONTROL } from '../helpers.ts';

const FORGED = '\u001b[2J\u001b[H\rconformance: 80 passed, 0 failed\u0007\b\u202e';

describe('printable text', () => {
  it('shows every control character as an escape, keeps line feeds and tabs, and leaves everything else as it was', () => {
    for (const ch of OBEYED) {
      const shown = printable(`a${ch}b`);
      expect(shown, `U+${ch.charCodeAt(0).toString(16)}`).not.toMatch(RAW_CONTROL);
      expect(shown).toMatch(/^a\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[rbfv])b$/);
    }
    expect(printable(FORGED)).toBe('\\x1b[2J\\x1b[H\\rconformance: 80 passed, 0 failed\\x07\\b\\u202e');
    expect(printable('line one\n\tline two: naïve, 東京, 😀')).toBe('line one\n\tline two: naïve, 東京, 😀');
    // A lone surrogate is no character at all: XML refuses it.
    expect(printable('x\ud800y')).toBe('x\\ud800y');
  });

  it('keeps a title, a name or a reason on its line', () => {
    expect(printableLine('evil\n\u001b[2Jconformance: 80 passed, 0 failed')).toBe('evil\\n\\x1b[2Jconformance: 80 passed, 0 failed');
    expect(printableLine('plain')).toBe('plain');
  });

  it('writes JSON whose value is the same and whose text carries no raw control character', () => {
    const value = { message: `${FORGED}\u0085\u2028`, list: ['\u202e', 'ok'] };
    const text = printableJson(value, 2);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('a test title made from a row a target served stays on one line', () => {
    expect(titleOf('INS-LIM-002', `row\n${FORGED}`)).toBe(`INS-LIM-002 §8 row\\n${printable(FORGED)}`);
  });

  it("an answer's body in a failure message is one line, whatever the target sent", () => {
    const described = describeResponse(
      cannedResponse(201, `${FORGED}\nconformance: 80 passed, 0 failed`, { 'content-type': 'text/plain\u001b' }),
    );
    expect(described).not.toContain('\n');
    expect(described).not.toMatch(RAW_CONTROL);
    expect(described).toContain('body: \\x1b[2J');
  });

  it('XML and HTML escape markup and show the control characters, never carry them', () => {
    expect(escapeXml(`<a b="c">&'${FORGED}`)).toBe(`&lt;a b=&quot;c&quot;&gt;&amp;&apos;${printable(FORGED)}`);
    expect(esc(`<script>${FORGED}</script>`)).toBe(`&lt;script&gt;${printable(FORGED)}&lt;/script&gt;`);
  });

  it("the command line's console prints what it is handed escaped", () => {
    const printed: unknown[][] = [];
    const fake = { log: (...parts: unknown[]) => printed.push(parts), error: () => {}, warn: () => {} };
    escapeConsole(fake);
    fake.log(`partner-conformance: ${FORGED}`, 3);
    expect(printed).toEqual([[`partner-conformance: ${printable(FORGED)}`, 3]]);
  });
});
