import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import semver from 'semver';
import { z } from 'zod';
import { ANNOTATIONS } from '../core/annotations.js';
import { Platform } from '../render/synth/platform.js';
import { Validation, validateProps } from '../render/synth/validation.js';
import { channelOffersVersion, tryParseChannel, type ChannelTier } from './channel.js';
import { skippedMinors } from './minor-step.js';

export interface ClusterVersionTargetProps {
  /** Update channel: `stable-4.N`, `fast-4.N`, `candidate-4.N` or `eus-4.N` (even N). */
  readonly channel: string;
  /** Target release, e.g. `4.16.3`. Reached one valid graph step at a time, never set directly. */
  readonly version: string;
  /** Release image of the target, by digest (`quay.io/...@sha256:<64 hex>`). */
  readonly image?: string;
  /** Update service URL. @default the cluster's (Red Hat's public service) */
  readonly upstream?: string;
  /**
   * Names of risks the platform team accepts: the update service's conditional-update risks (e.g.
   * `ReconciledPlatformSCC`), and Groundwork's own two, which it otherwise refuses before any write:
   * `UnknownVersion` (a version in no channel of the shipped graph-data snapshot nor the
   * repository's graphs, e.g. one published after the snapshot) and `Downgrade` (a rollback to the
   * cluster's previous version in the same minor; the cluster-version operator refuses any other).
   */
  readonly acceptedRisks?: readonly string[];
  /** EUS-to-EUS: update the control plane through both minors with worker pools paused. @default false */
  readonly controlPlaneOnly?: boolean;
  /**
   * How long an update may report a `Failing=True` that no ClusterOperator condition explains
   * (a workload, the payload, `MultipleErrors`) before Groundwork calls it failed, in seconds;
   * until then Groundwork waits and reports the reason. A `Failing` for unavailable or degraded
   * operators follows oc's limits instead (20 and 40 minutes, `OPERATOR_GRACE_MS`). @default 600
   */
  readonly failingGraceSeconds?: number;
  /** ClusterVersion object name. @default 'version' */
  readonly name?: string;
  /** Only for clusters where Groundwork creates the ClusterVersion (tests); OpenShift's installer sets it. */
  readonly clusterID?: string;
}

const schema = z
  .object({
    channel: z.string(),
    version: z
      .string()
      .refine((v) => semver.valid(v) !== null, 'must be a full semantic version such as 4.16.3'),
    image: z
      .string()
      .regex(/^[^@\s]+@sha256:[a-f0-9]{64}$/, 'must be a release image pinned by digest (…@sha256:<64 hex>)')
      .optional(),
    upstream: z.url().optional(),
    acceptedRisks: z
      .array(z.string().regex(/^[A-Za-z0-9]+$/, 'risk names are CamelCase identifiers'))
      .optional(),
    controlPlaneOnly: z.boolean().optional(),
    failingGraceSeconds: z.number().int().min(0).max(86_400).optional(),
    name: z.string().optional(),
    clusterID: z.uuid().optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const parsed = tryParseChannel(p.channel);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', path: ['channel'], message: parsed.message });
      return;
    }
    const v = semver.parse(p.version);
    if (v && !channelOffersVersion(parsed.channel, v)) {
      ctx.addIssue({
        code: 'custom',
        path: ['version'],
        message: `${p.version} is not offered by channel ${p.channel}`,
        params: {
          fix: `use channel ${channelFor(parsed.channel.tier, v)}, which offers ${v.major}.${v.minor}`,
        },
      });
    }
    if (p.controlPlaneOnly && parsed.channel.tier !== 'eus') {
      ctx.addIssue({
        code: 'custom',
        path: ['controlPlaneOnly'],
        message: 'control-plane-only updates are EUS-to-EUS: use an eus-4.N channel',
      });
    }
  });

/**
 * The cluster's version target. Emits the ClusterVersion's channel (and upstream) and records the
 * target as annotations; the engine walks the update graph and sets `spec.desiredUpdate` one
 * step at a time, so the synthesized object never jumps straight to the target.
 *
 * @example
 * new ClusterVersionTarget(platform, 'version', { channel: 'stable-4.16', version: '4.16.3' });
 */
export class ClusterVersionTarget extends Construct {
  readonly version: string;
  readonly channel: string;

  constructor(scope: Construct, id: string, props: ClusterVersionTargetProps) {
    super(scope, id);
    this.version = props.version;
    this.channel = props.channel;
    const p = validateProps(this, schema, props, {
      channel: 'use stable-4.N, fast-4.N, candidate-4.N or eus-4.N (even N)',
      image: 'take the digest from the release notes or `oc adm release info`',
    });
    if (!p) return;
    checkMinorStep(this, p);
    new ApiObject(this, 'Resource', {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: {
        name: p.name ?? 'version',
        annotations: {
          // The installer set channel and upstream; declaring them here takes them over.
          [ANNOTATIONS.conflicts]: 'force',
          [ANNOTATIONS.targetVersion]: p.version,
          ...(p.image ? { [ANNOTATIONS.targetImage]: p.image } : {}),
          ...(p.acceptedRisks?.length
            ? { [ANNOTATIONS.acceptedRisks]: JSON.stringify([...p.acceptedRisks].sort()) }
            : {}),
          ...(p.controlPlaneOnly ? { [ANNOTATIONS.controlPlaneOnly]: 'true' } : {}),
          ...(p.failingGraceSeconds !== undefined
            ? { [ANNOTATIONS.failingGrace]: String(p.failingGraceSeconds) }
            : {}),
        },
      },
      spec: {
        channel: p.channel,
        ...(p.upstream ? { upstream: p.upstream } : {}),
        ...(p.clusterID ? { clusterID: p.clusterID } : {}),
      },
    });
  }
}

/** The channel of `tier` that offers a version's minor (`eus` only exists for even minors). */
function channelFor(tier: ChannelTier, v: { major: number; minor: number }): string {
  return `${tier === 'eus' && v.minor % 2 !== 0 ? 'stable' : tier}-${v.major}.${v.minor}`;
}

/**
 * The target may not skip a minor relative to the platform's `openshiftVersion` (the same rule the
 * PR preview applies between revisions, `skippedMinors`): 4.14 → 4.16 is refused at synth unless it
 * is an EUS-to-EUS update.
 */
function checkMinorStep(
  target: Construct,
  p: { version: string; channel: string; controlPlaneOnly?: boolean | undefined },
): void {
  const platformMinor = Platform.of(target).openshiftMinor;
  const to = semver.parse(p.version);
  if (!to || platformMinor <= 0) return;
  const from = { major: to.major, minor: platformMinor };
  const skipped = skippedMinors(from, to, {
    channel: p.channel,
    ...(p.controlPlaneOnly !== undefined ? { controlPlaneOnly: p.controlPlaneOnly } : {}),
  });
  if (skipped.length === 0) return;
  Validation.error(
    target,
    'version',
    `${p.version} skips ${skipped.join(', ')} from the platform's openshiftVersion ${from.major}.${from.minor}: OpenShift updates one minor at a time`,
    `target ${from.major}.${from.minor + 1} first (channel ${channelFor('stable', { major: from.major, minor: from.minor + 1 })}), then raise openshiftVersion; or, from an even minor, use an eus- channel with controlPlaneOnly`,
  );
}
