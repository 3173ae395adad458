import type { K8sObject } from '../core/object.js';
import { isPlainObject } from '../core/object.js';
import {
  arrayAt,
  conditionOf,
  conditionWith,
  describeCondition,
  noStatus,
  objectAt,
  specOf,
  staleGeneration,
  statusOf,
  stringAt,
  type Fields,
} from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/** A release as ClusterVersion names it: by version, by image, or both. */
interface Release {
  version?: string;
  image?: string;
}

/**
 * The release the cluster should run: `spec.desiredUpdate` when it names a version; for an update
 * by image (`version: ""`, `oc adm upgrade --to-image`) the `status.desired` release once the CVO
 * took that image, since only it knows the image's version (oc `assessControlPlaneStatus` reads
 * `status.desired.version`); the image alone until then; `status.desired` without a desiredUpdate.
 */
export function desiredRelease(cv: K8sObject): Release | undefined {
  const wanted = releaseOf(objectAt(specOf(cv), 'desiredUpdate'));
  const desired = releaseOf(objectAt(statusOf(cv), 'desired'));
  if (!wanted || wanted.version) return wanted ?? desired;
  return desired && sameRelease(wanted, desired) ? { ...desired, image: wanted.image } : wanted;
}

/**
 * True when the newest `status.history` entry is the desired release and its state is
 * `Completed`: the cluster version operator has applied every component of it.
 */
export function updateCompleted(cv: K8sObject): boolean {
  const latest = latestHistory(cv);
  const desired = desiredRelease(cv);
  return !!latest && !!desired && sameRelease(releaseOf(latest), desired) && latest.state === 'Completed';
}

/** The version of the newest `Completed` history entry: what the cluster last fully ran. */
export function completedVersion(cv: K8sObject): string | undefined {
  const done = arrayAt(statusOf(cv), 'history').find((h) => isPlainObject(h) && h.state === 'Completed');
  return stringAt(done as Fields | undefined, 'version');
}

/** `4.14.1`, or the image when a release has no version. */
export function releaseName(release: Release | undefined): string {
  return release?.version ?? release?.image ?? 'an unknown release';
}

/**
 * Health of an OpenShift `config.openshift.io/v1` ClusterVersion, in this order:
 *
 * - `Unknown` (NoStatus) before the cluster version operator writes status;
 * - `Progressing` (ObservedGenerationOutdated) while it has not observed the latest spec;
 * - `Degraded` when `Invalid` is True: the CVO ignores the spec (Invalid), when `Failing` is True
 *   (Failing; the version stage still waits out a grace period, see `nextUpdateAction`), when `ReleaseAccepted` is False: the payload could
 *   not be retrieved or verified (ReleaseNotAccepted), or when `Available` is False while nothing
 *   progresses (Unavailable);
 * - `Progressing` (Updating) while `Progressing` is True, with the operator's progress message;
 * - `Progressing` (UpdateIncomplete) while `status.history[0]` is not the desired release
 *   (`spec.desiredUpdate`, else `status.desired`) in state `Completed`;
 * - `Healthy` (AtDesiredVersion) otherwise.
 *
 * `RetrievedUpdates=False` (the CVO could not fetch updates) is quoted in the Healthy message: it
 * stops new steps, not the running release. It does not judge `Upgradeable=False` (it only blocks minor updates) or
 * available updates, nor the cluster operators and pools: see `assessClusterUpdate` for those.
 */
export function clusterVersionHealth(obj: K8sObject): HealthVerdict {
  if (!statusOf(obj)) return noStatus(obj);
  const stale = staleGeneration(obj);
  if (stale) return stale;

  const invalid = conditionWith(obj, 'Invalid', 'True');
  if (invalid) return verdict('Degraded', 'Invalid', describeCondition(invalid));
  const failing = conditionWith(obj, 'Failing', 'True');
  if (failing) return verdict('Degraded', 'Failing', describeCondition(failing));
  const rejected = conditionWith(obj, 'ReleaseAccepted', 'False');
  if (rejected) return verdict('Degraded', 'ReleaseNotAccepted', describeCondition(rejected));
  const progressing = conditionWith(obj, 'Progressing', 'True');
  const unavailable = conditionWith(obj, 'Available', 'False');
  if (unavailable && !progressing) return verdict('Degraded', 'Unavailable', describeCondition(unavailable));
  if (progressing) return verdict('Progressing', 'Updating', describeCondition(progressing));

  const desired = desiredRelease(obj);
  if (!updateCompleted(obj)) {
    const latest = latestHistory(obj);
    const state =
      latest && sameRelease(releaseOf(latest), desired) ? String(latest.state ?? 'pending') : 'not started';
    return verdict('Progressing', 'UpdateIncomplete', `the update to ${releaseName(desired)} is ${state}`);
  }
  const done = conditionOf(obj, 'Progressing')?.message ?? `cluster version is ${releaseName(desired)}`;
  const retrieved = conditionWith(obj, 'RetrievedUpdates', 'False');
  return verdict(
    'Healthy',
    'AtDesiredVersion',
    retrieved ? `${done}; updates not retrieved: ${describeCondition(retrieved)}` : done,
  );
}

function latestHistory(cv: K8sObject): Fields | undefined {
  const [latest] = arrayAt(statusOf(cv), 'history');
  return isPlainObject(latest) ? latest : undefined;
}

function releaseOf(fields: Fields | undefined): Release | undefined {
  const version = stringAt(fields, 'version');
  const image = stringAt(fields, 'image');
  if (!version && !image) return undefined;
  return { ...(version && { version }), ...(image && { image }) };
}

/** Images identify a release exactly; versions are compared only when an image is missing. */
function sameRelease(a: Release | undefined, b: Release | undefined): boolean {
  if (a?.image && b?.image) return a.image === b.image;
  return !!a?.version && a.version === b?.version;
}
