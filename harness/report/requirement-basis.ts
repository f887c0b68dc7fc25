/**
 * What a verdict rests on, shown wherever a verdict is shown: the spec's own words (a requirement's
 * `quote` in specs/requirements.yaml), or, for a requirement the spec does not state in words (policy,
 * vendor, configuration), our reading of it, said to be ours. The run's summary carries each judged
 * requirement's entry (`RunSummary.requirements`), so that every report (console, conformance.md and
 * .json, junit.xml, report.html, Allure) renders the same words from the same place, and a report made
 * from a summary later (merge, certify) needs no registry.
 */
import type { Area } from '../areas.ts';
import type { Requirement, RequirementSource } from '../spec/requirements.ts';
import { quotesOf } from '../spec/requirements.ts';

/** A requirement as the summary carries it: its area, section, source, text, the spec's words and our reading. */
export interface RequirementEntry {
  area: Area;
  section: string;
  source: RequirementSource;
  text: string;
  /** The spec's words it rests on, one passage each. */
  quote?: string[];
  /** How we read them, or what we read where the spec has no words for it. */
  reading?: string;
}

/** The entries of the requirements of the listed ids (those the registry knows). */
export function requirementEntries(
  ids: Iterable<string | undefined>,
  registry: ReadonlyMap<string, Requirement>,
): Record<string, RequirementEntry> {
  const out: Record<string, RequirementEntry> = {};
  for (const id of ids) {
    const req = id ? registry.get(id) : undefined;
    if (!req || out[req.id]) continue;
    const quote = quotesOf(req);
    out[req.id] = {
      area: req.area,
      section: req.section,
      source: req.source,
      text: req.text,
      ...(quote.length ? { quote } : {}),
      ...(req.reading ? { reading: req.reading } : {}),
    };
  }
  return out;
}

/** What a verdict rests on, ready to render: a heading, the spec's passages, and our reading when there is one. */
export interface Basis {
  /** "the spec's words, §8", or, where the words are not the spec's, whose reading it is. */
  heading: string;
  quotes: string[];
  reading?: string;
  /** true when the requirement is not the spec's statement but a reading of ours (policy, vendor, configuration). */
  ours: boolean;
}

const NOT_THE_SPEC: Record<Exclude<RequirementSource, 'spec'>, string> = {
  policy: "a reading of ours (policy), not the spec's words",
  vendor: "a vendor convention (public facts), not the spec's words",
  configuration: "a choice the spec leaves open, read from the target file; not the spec's words",
};

export function basisOf(entry: RequirementEntry | undefined): Basis | undefined {
  if (!entry) return undefined;
  const quotes = entry.quote ?? [];
  if (entry.source === 'spec') return { heading: `the spec's words, §${entry.section}`, quotes, reading: entry.reading, ours: false };
  // Where the spec has no words for it, the requirement's own text is the reading.
  return { heading: `${NOT_THE_SPEC[entry.source]}, §${entry.section}`, quotes, reading: entry.reading ?? entry.text, ours: true };
}

/**
 * The basis as plain text lines (console, junit.xml):
 *   Basis: the spec's words, §8:
 *     "contractId 1 to 128 characters"
 *     Our reading: …
 */
export function basisLines(basis: Basis | undefined): string[] {
  if (!basis) return [];
  const lines = [`Basis: ${basis.heading}:`];
  if (basis.ours && basis.reading) lines.push(`  Our reading: ${basis.reading}`);
  const lead = basis.ours ? "It reads the spec's words: " : '';
  basis.quotes.forEach((q, i) => lines.push(`  ${i === 0 ? lead : ' '.repeat(lead.length)}"${q}"`));
  if (!basis.ours && basis.reading) lines.push(`  Our reading of them: ${basis.reading}`);
  return lines;
}

/** The basis on one line (a junit property): the heading, each passage quoted, and our reading. */
export function basisLine(basis: Basis): string {
  const quotes = basis.quotes.map((q) => `"${q}"`).join(' · ');
  const reading = basis.reading ? `${basis.ours ? 'our reading' : 'our reading of them'}: ${basis.reading}` : '';
  const parts = basis.ours ? [reading, quotes && `reading the spec's words ${quotes}`] : [quotes, reading];
  return `${basis.heading}: ${parts.filter(Boolean).join('; ')}`;
}
