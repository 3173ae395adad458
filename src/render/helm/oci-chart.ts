// Helm charts in OCI registries: a version's tag resolved to its manifest digest once (chart lock),
// then fetched by digest only, the manifest and the chart layer checked against their digests.
import { z } from 'zod';
import { GroundworkError } from '../../core/errors.js';
import { digestOf, storeArchive } from './chart-archive-cache.js';
import type { ChartLockEntry } from './chart-lock.js';
import type { OutboundPolicy } from '../../core/outbound-url.js';
import { OciFetchError, OciRepositoryClient, type OciLimits } from './oci-client.js';
import { ociTag, parseOciChart, type OciChartRef } from './oci-reference.js';

/** The media types helm pushes (helm.sh/helm/v3 pkg/registry/constants.go) and the OCI manifest's. */
export const OCI_MEDIA_TYPES = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  index: 'application/vnd.oci.image.index.v1+json',
  helmConfig: 'application/vnd.cncf.helm.config.v1+json',
  chartLayer: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
  /** What helm before 3.7 pushed; helm still pulls it (with a deprecation warning). */
  legacyChartLayer: 'application/tar+gzip',
  provenance: 'application/vnd.cncf.helm.chart.provenance.v1.prov',
} as const;

/** The largest manifest read: distribution's own limit (4 MiB). */
export const MANIFEST_MAX = 4 * 1024 * 1024;
/** The largest chart layer read, as for an HTTP repository's archive. */
export const LAYER_MAX = 32 * 1024 * 1024;

const SHA256 = /^sha256:[0-9a-f]{64}$/;

const descriptorSchema = z.object({
  mediaType: z.string(),
  digest: z.string(),
  size: z.number().int().nonnegative(),
});

const manifestSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  config: descriptorSchema,
  layers: z.array(descriptorSchema).min(1).max(16),
  annotations: z.record(z.string(), z.string()).optional(),
});

type Descriptor = z.infer<typeof descriptorSchema>;

/** What synth and lock need from a chart's manifest. */
interface ChartManifest {
  readonly manifestDigest: string;
  readonly layer: Descriptor;
}

/** Options of both entry points: the registry's bounds (tests shorten them). */
export interface OciChartOptions {
  readonly limits?: OciLimits;
  /** Where a request may go (`checkedFetch`). @default `outboundPolicy()` */
  readonly policy?: OutboundPolicy;
}

/**
 * `groundwork chart lock` of an OCI chart: GETs the manifest of `version`'s tag (helm's `+` → `_`),
 * takes the sha256 of its bytes as the manifest digest, checks it is a Helm chart's (media types,
 * one chart layer, the title and version annotations when present), fetches the chart layer, checks
 * its bytes against the layer's digest and size, stores it in `<cache>/charts/` and returns the lock
 * entry. The only place a tag is read. Throws `ChartFetchFailed`.
 */
export async function resolveOciChart(
  key: { repo: string; name: string; version: string },
  opts: OciChartOptions = {},
): Promise<ChartLockEntry> {
  const ref = refOf(key);
  const client = new OciRepositoryClient(ref, opts.limits, opts.policy);
  const tag = tagOf(key);
  const manifest = await readManifest(client, tag, key).catch((err: unknown) => {
    const missing =
      err instanceof OciFetchError && err.status === 404
        ? new OciFetchError(`the registry has no tag ${tag} in ${ref.repository} (HTTP 404)`, 404)
        : err;
    throw ociError(
      key,
      missing,
      'check the repository, the chart name and the version (helm push printed them)',
    );
  });
  const bytes = await fetchLayer(client, manifest.layer, key).catch((err: unknown) => {
    throw ociError(key, err, 'check the registry');
  });
  await storeArchive(manifest.layer.digest, bytes);
  return {
    repo: key.repo,
    name: key.name,
    version: key.version,
    url: `oci://${ref.registry}/${ref.repository}@${manifest.manifestDigest}`,
    digest: manifest.layer.digest,
    manifestDigest: manifest.manifestDigest,
  };
}

/**
 * Synth's fetch of a locked OCI chart that is not cached: the manifest by the locked digest (never
 * the tag), its bytes checked against it, its chart layer required to be the locked `digest`, the
 * layer's bytes checked and stored by digest. A manifest the registry no longer has is a stale lock:
 * the error says where the tag points now (read for the message only, never rendered). Returns the
 * archive's path. Throws `ChartFetchFailed`.
 */
export async function lockedOciArchive(entry: ChartLockEntry, opts: OciChartOptions = {}): Promise<string> {
  const ref = refOf(entry);
  const client = new OciRepositoryClient(ref, opts.limits, opts.policy);
  const manifestDigest = entry.manifestDigest ?? '';
  let manifest: ChartManifest;
  try {
    manifest = await readManifest(client, manifestDigest, entry, manifestDigest);
  } catch (err) {
    if (err instanceof OciFetchError && err.status === 404) throw await staleLock(client, entry);
    throw ociError(
      entry,
      err,
      'fetch it once online (groundwork chart lock), or check the registry and the lock file',
    );
  }
  if (manifest.layer.digest !== entry.digest)
    throw ociError(
      entry,
      new Error(
        `the locked manifest ${manifestDigest} holds chart layer ${manifest.layer.digest}, not the locked ${entry.digest}`,
      ),
      'the lock file was edited by hand: write it again with groundwork chart update',
    );
  const bytes = await fetchLayer(client, manifest.layer, entry).catch((err: unknown) => {
    throw ociError(entry, err, 'check the registry, then groundwork chart update');
  });
  return storeArchive(entry.digest, bytes);
}

/** The manifest at `reference` (a tag or a digest), checked; `expected`: the digest its bytes must have. */
async function readManifest(
  client: OciRepositoryClient,
  reference: string,
  key: { name: string; version: string },
  expected?: string,
): Promise<ChartManifest> {
  const { bytes, contentType } = await client.get(`manifests/${reference}`, {
    accept: OCI_MEDIA_TYPES.manifest,
    maxBytes: MANIFEST_MAX,
    what: `manifest ${reference}`,
  });
  const manifestDigest = digestOf(bytes);
  if (expected !== undefined && manifestDigest !== expected)
    throw new Error(`the registry's manifest ${expected} has other bytes (${manifestDigest})`);
  if (contentType === OCI_MEDIA_TYPES.index)
    throw new Error(`${reference} is an image index (several artifacts), not a Helm chart's manifest`);
  if (contentType !== OCI_MEDIA_TYPES.manifest)
    throw new Error(
      `the manifest of ${reference} has media type ${printable(contentType) || '(none)'}, not ${OCI_MEDIA_TYPES.manifest}`,
    );
  let parsed;
  try {
    parsed = manifestSchema.safeParse(JSON.parse(bytes.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new Error(`the manifest of ${reference} is not an OCI image manifest (JSON)`);
  const manifest = parsed.data;
  if (manifest.mediaType !== undefined && manifest.mediaType !== OCI_MEDIA_TYPES.manifest)
    throw new Error(`the manifest of ${reference} says media type ${printable(manifest.mediaType)}`);
  if (manifest.config.mediaType !== OCI_MEDIA_TYPES.helmConfig)
    throw new Error(
      `${reference} is not a Helm chart: its config has media type ${printable(manifest.config.mediaType)}, not ${OCI_MEDIA_TYPES.helmConfig}`,
    );
  const charts = manifest.layers.filter(
    (l) => l.mediaType === OCI_MEDIA_TYPES.chartLayer || l.mediaType === OCI_MEDIA_TYPES.legacyChartLayer,
  );
  const other = manifest.layers.find(
    (l) => !charts.includes(l) && l.mediaType !== OCI_MEDIA_TYPES.provenance,
  );
  if (charts.length !== 1 || other)
    throw new Error(
      `the manifest of ${reference} has ${charts.length} chart layers${other ? ` and a layer of media type ${printable(other.mediaType)}` : ''}: a Helm chart has one (${OCI_MEDIA_TYPES.chartLayer})`,
    );
  const layer = charts[0]!;
  if (!SHA256.test(layer.digest))
    throw new Error(`the chart layer's digest is not sha256:<64 hex> (${printable(layer.digest)})`);
  if (layer.size > LAYER_MAX)
    throw new Error(`the chart layer is ${layer.size} bytes, more than ${LAYER_MAX / 1024 / 1024} MiB`);
  const title = manifest.annotations?.['org.opencontainers.image.title'];
  const version = manifest.annotations?.['org.opencontainers.image.version'];
  if ((title !== undefined && title !== key.name) || (version !== undefined && version !== key.version))
    throw new Error(
      `the manifest of ${reference} is chart ${printable(title ?? key.name)} ${printable(version ?? key.version)}, not ${key.name} ${key.version}`,
    );
  return { manifestDigest, layer };
}

/** The chart layer's bytes, checked against its size and digest. */
async function fetchLayer(
  client: OciRepositoryClient,
  layer: Descriptor,
  key: { name: string },
): Promise<Buffer> {
  const { bytes } = await client.get(`blobs/${layer.digest}`, {
    accept: `${layer.mediaType}, application/octet-stream;q=0.5`,
    maxBytes: Math.min(layer.size, LAYER_MAX),
    what: `chart layer of ${key.name}`,
  });
  const digest = digestOf(bytes);
  if (digest !== layer.digest || bytes.length !== layer.size)
    throw new Error(
      `the chart layer's bytes have digest ${digest} (${bytes.length} bytes), not ${layer.digest} (${layer.size} bytes)`,
    );
  return bytes;
}

/** The error of a locked manifest the registry no longer has, naming where the tag points now. */
async function staleLock(client: OciRepositoryClient, entry: ChartLockEntry): Promise<GroundworkError> {
  const tag = ociTag(entry.version);
  // Read for the message only; a hand-edited version that is no tag is not asked for.
  const now = OCI_TAG.test(tag)
    ? await client
        .get(`manifests/${tag}`, {
          accept: OCI_MEDIA_TYPES.manifest,
          maxBytes: MANIFEST_MAX,
          what: `tag ${tag}`,
        })
        .then(
          ({ bytes }) =>
            `the tag ${tag} now points to ${digestOf(bytes)}: the chart was pushed again with other bytes`,
        )
        .catch(() => `the tag ${tag} is gone too`)
    : 'its version is no OCI tag';
  return ociError(
    entry,
    new Error(`the locked manifest ${entry.manifestDigest} is no longer in the registry; ${now}`),
    'check what changed in the chart, then groundwork chart update to lock the new manifest (the cached archive of the old one still renders where it is cached)',
  );
}

/** The distribution spec's tag grammar. */
const OCI_TAG = /^[\w][\w.-]{0,127}$/;

/** The tag of `key.version`, refused (no request made) when it is no OCI tag (`../x`, `a/b`). */
function tagOf(key: { repo: string; name: string; version: string }): string {
  const tag = ociTag(key.version);
  if (OCI_TAG.test(tag)) return tag;
  throw new GroundworkError({
    code: 'ChartFetchFailed',
    subject: `chart ${key.name} of ${key.repo}`,
    message: 'its version is not an OCI tag (letters, digits, _ . -, at most 128)',
    fix: 'set version to the exact chart version, e.g. 1.2.3',
  });
}

function refOf(key: { repo: string; name: string; version: string }): OciChartRef {
  const ref = parseOciChart({ repo: key.repo, chart: key.name });
  if ('problem' in ref)
    throw new GroundworkError({
      code: 'ChartFetchFailed',
      subject: `chart ${key.name} ${key.version} of ${key.repo}`,
      message: ref.problem,
      fix: ref.fix,
    });
  return ref;
}

function ociError(
  key: { repo: string; name: string; version: string },
  err: unknown,
  fix: string,
): GroundworkError {
  if (err instanceof GroundworkError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Flux users met "failed to fetch anonymous token: 403" for a repo that already ended in the
  // chart's name (fluxcd/flux2#3438): registries answer a missing repository like a private one.
  const doubled = key.repo.split('/').at(-1) === key.name;
  return new GroundworkError({
    code: 'ChartFetchFailed',
    subject: `chart ${key.name} ${key.version} of ${key.repo}`,
    message,
    fix:
      doubled && err instanceof OciFetchError && [401, 403, 404].includes(err.status ?? 0)
        ? `repo ends in the chart's name: repo is the parent (${key.repo.slice(0, -key.name.length - 1)}), chart the name`
        : fix,
  });
}

/** A registry-supplied string, cut and stripped of control characters before it is shown. */
function printable(s: string): string {
  const flat = s.replace(/[^\x20-\x7e]/g, '?');
  return flat.length > 80 ? `${flat.slice(0, 80)}...` : flat;
}
