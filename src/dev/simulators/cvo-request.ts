import semver from 'semver';
import { sameDigest, type UpdateService } from './cincinnati.js';
import type { StatusRelease } from './cvo-updates.js';

/** What `spec.desiredUpdate` asks for, after the CVO's validation. */
type UpdateRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly message: string }
  | {
      readonly kind: 'release';
      readonly image: string;
      readonly version: string | undefined;
      readonly force: boolean;
    };

/**
 * Reads `spec.desiredUpdate` as the CVO does (`lib/validation.ValidateClusterVersion`, then
 * `findUpdateFromConfig`): an image is taken as is; a version alone must be one of
 * `status.availableUpdates` (its image is used) — otherwise the ClusterVersion is invalid
 * (`Invalid` condition, reason `InvalidClusterVersion`) and nothing is updated, `force` or not.
 */
export function resolveDesiredUpdate(
  desired: { version?: string; image?: string; force?: boolean } | undefined,
  status: {
    availableUpdates: readonly StatusRelease[] | null;
    history: readonly { version: string; image: string }[];
  },
): UpdateRequest {
  if (!desired) return { kind: 'none' };
  const invalid = (error: string): UpdateRequest => ({
    kind: 'invalid',
    message: `The cluster version is invalid: ${error}`,
  });
  const force = desired.force === true;
  if (desired.image)
    return { kind: 'release', image: desired.image, version: desired.version || undefined, force };
  const version = desired.version;
  if (!version)
    return invalid('spec.desiredUpdate: Required value: must specify architecture, version, or image');
  if (!semver.valid(version)) {
    return invalid(
      `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: must be a semantic version (1.2.3[-...])`,
    );
  }
  const available = (status.availableUpdates ?? []).filter((u) => u.version === version && u.image);
  const inHistory = status.history.some((h) => h.version === version && h.image);
  if (available.length === 0 && !inHistory) {
    return invalid(
      `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: when image is empty the update must be an available update`,
    );
  }
  if (available.length > 1) {
    return invalid(
      `spec.desiredUpdate.version: Invalid value: ${JSON.stringify(version)}: there are multiple possible payloads for this version, specify the exact image`,
    );
  }
  const [found] = available;
  return found ? { kind: 'release', image: found.image, version, force } : { kind: 'none' };
}

/** A requested release with what the update service knows of it; `verified` when the graph has its image. */
interface LoadedRelease {
  readonly version: string;
  readonly image: string;
  readonly channels: string[];
  readonly url: string | undefined;
  readonly verified: boolean;
}

/**
 * The release behind an image: the graph node with the same digest (signed releases, so the CVO's
 * signature check passes), else an unknown payload that only `force` gets past.
 */
export function releaseForUpdate(
  service: UpdateService,
  request: { image: string; version: string | undefined },
): LoadedRelease {
  const node =
    (request.version ? service.release(request.version) : undefined) ?? service.releaseByImage(request.image);
  if (node && sameDigest(node.payload, request.image)) {
    return {
      version: node.version,
      image: request.image,
      channels: [...node.channels],
      url: node.url,
      verified: true,
    };
  }
  return {
    version: request.version ?? '',
    image: request.image,
    channels: [],
    url: undefined,
    verified: false,
  };
}
