import semver from 'semver';
import type { Channel, ChannelEntry } from './catalog/model.js';

/** Why a channel entry may update an installed CSV: OLM's three upgrade edges. */
export type CandidateReason = 'replaces' | 'skips' | 'skipRange';

/** The CSV an update starts from; `version` is needed only for `skipRange` edges. */
export interface InstalledCSV {
  readonly csv: string;
  readonly version: string | undefined;
}

/** An update candidate and the edges that make it one. */
interface Candidate {
  readonly entry: ChannelEntry;
  readonly reasons: readonly CandidateReason[];
}

/**
 * The edges from `installed` to `entry`, empty when `entry` is not an update
 * candidate. Mirrors OLM's cache predicates (operator-lifecycle-manager
 * `pkg/controller/registry/resolver/cache/predicates.go`): `ReplacesPredicate`
 * matches `replaces` and `skips` by CSV name, `SkipRangeIncludesPredicate`
 * matches the installed version against `skipRange`. Ranges include
 * pre-releases, as blang/semver compares them. An entry is never its own candidate.
 */
export function candidateReasons(entry: ChannelEntry, installed: InstalledCSV): CandidateReason[] {
  if (entry.name === installed.csv) return [];
  const reasons: CandidateReason[] = [];
  if (entry.replaces === installed.csv) reasons.push('replaces');
  if (entry.skips.includes(installed.csv)) reasons.push('skips');
  if (
    entry.skipRange !== undefined &&
    installed.version !== undefined &&
    semver.satisfies(installed.version, entry.skipRange, { includePrerelease: true })
  ) {
    reasons.push('skipRange');
  }
  return reasons;
}

/**
 * Update candidates for `installed` in `channel`, nearest the head first, which
 * is the order OLM's resolver prefers them in (it sorts the channel with
 * `sortChannel`, then filters). Entries outside `channel.order` (skipped ones)
 * are never candidates. Empty for a channel with problems.
 */
export function updateCandidates(channel: Channel, installed: InstalledCSV): Candidate[] {
  const byName = new Map(channel.entries.map((e) => [e.name, e]));
  const out: Candidate[] = [];
  for (const name of channel.order) {
    const entry = byName.get(name);
    if (!entry) continue;
    const reasons = candidateReasons(entry, installed);
    if (reasons.length > 0) out.push({ entry, reasons });
  }
  return out;
}
