import semver from 'semver';
import type { KindPolicy } from '../project/propose-config.js';
import type { ChartVersion } from './chart-versions.js';
import { ageProblem, ignoredBy, ruleText, withinLevel } from './level.js';
import type { ChartPin } from './pins.js';
import { isSafeVersion } from './safe-text.js';

/** A chart version the policy allows, newest first; the caller resolves each until one resolves. */
export interface ChartCandidates {
  readonly allowed: readonly string[];
  readonly refused: readonly { readonly to: string; readonly reason: string }[];
  /** Newer versions outside the policy's level, newest first. */
  readonly outside: readonly string[];
}

/**
 * The versions newer than the pin that the policy allows (level, ignore rules, minimumAge by the
 * index's `created` date), newest first; ignored and too-young ones refused with the reason.
 * A version that is not SemVer (helm requires SemVer) is left out. Pure.
 */
export function chartCandidates(
  pin: ChartPin,
  versions: readonly ChartVersion[],
  policy: KindPolicy,
  now: Date,
): ChartCandidates {
  const from = semver.valid(pin.value);
  if (!from)
    return {
      allowed: [],
      outside: [],
      refused: [{ to: '', reason: `the pinned version ${pin.value} is not SemVer` }],
    };
  const newer = [
    ...new Map(
      versions
        .filter((v) => isSafeVersion(v.version) && semver.gt(v.version, from))
        .map((v) => [v.version, v]),
    ).values(),
  ].sort((a, b) => semver.rcompare(a.version, b.version));
  const allowed: string[] = [];
  const outside: string[] = [];
  const refused: { to: string; reason: string }[] = [];
  for (const v of newer) {
    if (!withinLevel(policy, from, v.version)) {
      outside.push(v.version);
      continue;
    }
    const rule = ignoredBy(policy.ignore, pin.subject, v.version);
    const age = ageProblem(policy, v.created, now);
    if (rule) refused.push({ to: v.version, reason: `ignored by propose policy (${ruleText(rule)})` });
    else if (age) refused.push({ to: v.version, reason: age });
    else allowed.push(v.version);
  }
  return { allowed, refused, outside };
}
