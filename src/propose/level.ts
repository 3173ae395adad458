import semver from 'semver';
import type { IgnoreRule, KindPolicy } from '../project/propose-config.js';

/**
 * Whether moving from `from` to `to` stays within the policy's `update` level: `patch` keeps
 * major.minor, `minor` keeps the major, `channel` and `major` take any newer version (the channel
 * itself is the caller's to check), `none` nothing. `to` must be newer. Pure.
 *
 * For OpenShift, `minor` allows exactly the next minor (minors are never skipped): the caller
 * passes `nextMinorOnly`.
 */
export function withinLevel(
  policy: Pick<KindPolicy, 'update'>,
  from: string,
  to: string,
  opts: { nextMinorOnly?: boolean } = {},
): boolean {
  const a = semver.parse(from);
  const b = semver.parse(to);
  if (!a || !b || semver.compare(b, a) <= 0) return false;
  switch (policy.update) {
    case 'none':
      return false;
    case 'patch':
      return a.major === b.major && a.minor === b.minor;
    case 'minor':
      return a.major === b.major && (!opts.nextMinorOnly || b.minor - a.minor <= 1);
    case 'channel':
    case 'major':
      return true;
  }
}

/** The rule of `ignore` that excludes `version` of `subject` (a whole-subject rule first), if any. Pure. */
export function ignoredBy(
  rules: readonly IgnoreRule[],
  subject: string,
  version: string,
): IgnoreRule | undefined {
  return rules.find(
    (r) =>
      r.subject === subject &&
      (r.range === undefined || semver.satisfies(version, r.range, { includePrerelease: true })),
  );
}

/** `subject@range` or `subject`, as groundwork.yaml writes the rule. */
export function ruleText(rule: IgnoreRule): string {
  return rule.range === undefined ? rule.subject : `${rule.subject}@${rule.range}`;
}

/**
 * Why a release is too young or its age unknown under `minimumAge`, or undefined when it may be
 * proposed. `released` undefined: the source gives no date, which only matters when a minimum is set.
 */
export function ageProblem(policy: KindPolicy, released: Date | undefined, now: Date): string | undefined {
  if (policy.minimumAgeMs <= 0) return undefined;
  if (!released)
    return `its source gives no release date, so minimumAge ${policy.minimumAge} cannot be checked`;
  const age = now.getTime() - released.getTime();
  if (age < policy.minimumAgeMs)
    return `released ${released.toISOString()}, younger than minimumAge ${policy.minimumAge}`;
  return undefined;
}
