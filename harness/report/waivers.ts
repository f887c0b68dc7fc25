/**
 * Applying waivers to a run's records. A waiver accepts the contract failures of one requirement (all its
 * rows, or the rows its pattern matches) until its expiry day ends (UTC):
 *   - a failure it matches, while it holds, becomes `waived`: reported apart, never as passed;
 *   - after its expiry day the failure stays `failed`, and the record says which waiver expired;
 *   - a waiver that matched no failure is reported as unused (the failure is fixed, or the pattern is wrong).
 * Only contract failures are waived: a tool error is no verdict at all, a skip checked nothing, and a
 * policy warning already fails nothing.
 */
import type { TestRecord, WaiverRecord, WaiverUse } from './records.ts';

/** The test's row: its title after `<id> §<section> ` (the requirement's text when the test has no row). */
export function rowOf(t: Pick<TestRecord, 'title' | 'requirement' | 'section'>): string {
  const prefix = `${t.requirement} §${t.section} `;
  return t.title.startsWith(prefix) ? t.title.slice(prefix.length) : t.title;
}

/** A row pattern: '*' is any run of characters, everything else literal, the whole row must match. */
export function rowPattern(pattern: string): RegExp {
  const literal = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[\\s\\S]*')}$`);
}

type Judged = Pick<TestRecord, 'title' | 'requirement' | 'section' | 'verdict'>;

const matches = (w: WaiverRecord, t: Judged) =>
  t.requirement === w.requirement && (w.row === undefined || rowPattern(w.row).test(rowOf(t)));

/** The waiver holds through its expiry day (UTC); `today` is yyyy-mm-dd. */
export const inForce = (w: WaiverRecord, today: string) => w.expires >= today;

/** Whether a waiver in force accepts this contract failure (what applyWaivers makes `waived`). */
export const isWaived = (t: Judged, waivers: readonly WaiverRecord[], today: string = todayUtc()) =>
  t.verdict === 'failed' && waivers.some((w) => matches(w, t) && inForce(w, today));

export const todayUtc = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** The records with waivers applied (new objects; the input is not changed) and what each waiver did. */
export function applyWaivers(
  tests: readonly TestRecord[],
  waivers: readonly WaiverRecord[],
  today: string = todayUtc(),
): { tests: TestRecord[]; uses: WaiverUse[] } {
  const matched = new Map<WaiverRecord, string[]>(waivers.map((w) => [w, []]));
  const out = tests.map((t) => {
    if (t.verdict !== 'failed') return t;
    const candidates = waivers.filter((w) => matches(w, t));
    for (const w of candidates) matched.get(w)!.push(t.title);
    const holding = candidates.find((w) => inForce(w, today));
    if (holding) return { ...t, verdict: 'waived' as const, waiver: holding };
    if (candidates.length) return { ...t, waiver: candidates[0], waiverExpired: true };
    return t;
  });
  const uses = waivers.map((w): WaiverUse => {
    const list = matched.get(w)!;
    return { ...w, status: !inForce(w, today) ? 'expired' : list.length ? 'applied' : 'unused', tests: list };
  });
  return { tests: out, uses };
}

/** One line about a waiver, for reports: `waiver 2 (INS-LIM-002 "…"), owner X, until 2026-12-31: reason`. */
export function describeWaiver(w: WaiverRecord): string {
  return `waiver ${w.entry} (${w.requirement}${w.row ? ` rows "${w.row}"` : ''}), owner ${w.owner}, until ${w.expires}: ${w.reason}`;
}
