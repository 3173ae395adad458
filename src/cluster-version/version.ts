import semver from 'semver';

/**
 * OpenShift release versions are SemVer 2.0 (`4.14.1`, `4.12.0-rc.3`). These helpers parse
 * strictly (no `v` prefix, no loose forms) and never throw: a `undefined` result means "not a
 * version", and callers turn it into a refusal or a validation problem.
 */
export type SemVer = semver.SemVer;

/** The kind of one update step: `patch` stays in the minor (4.y.z → 4.y.z'), `minor` moves to 4.(y+1). */
export type StepKind = 'patch' | 'minor';

export function parseVersion(version: string): SemVer | undefined {
  return semver.parse(version) ?? undefined;
}

export function isVersion(version: string): boolean {
  return parseVersion(version) !== undefined;
}

/** SemVer precedence (build metadata ignored); both arguments must be valid versions. */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a, b);
}

/** `patch` when both versions share major.minor, `minor` otherwise. */
export function stepKind(from: SemVer, to: SemVer): StepKind {
  return from.major === to.major && from.minor === to.minor ? 'patch' : 'minor';
}

/**
 * The digest of a release pullspec (`sha256:...` after `@`), or the pullspec itself.
 * The same release is often pulled through a mirror (`registry.ci/...@sha256:X` and
 * `quay.io/...@sha256:X`), so equality of releases is equality of digests.
 */
function imageDigest(image: string): string {
  const at = image.lastIndexOf('@');
  return at < 0 ? image : image.slice(at + 1);
}

export function sameImage(a: string, b: string): boolean {
  return imageDigest(a) === imageDigest(b);
}
