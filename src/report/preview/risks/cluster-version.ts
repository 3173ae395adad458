import { tryParseChannel, type Channel } from '../../../cluster-version/channel.js';
import { parseVersion } from '../../../cluster-version/version.js';
import { ANNOTATIONS, acceptedRisksOf } from '../../../core/annotations.js';
import { describeRef } from '../../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../../core/object.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';
import { isEusToEus, skippedMinors } from '../../../cluster-version/minor-step.js';
import { checkTarget, TARGET_RISKS } from '../../../cluster-version/target-check.js';

/**
 * Risk notes for the ClusterVersion target (`groundwork.io/target-version` and `spec.channel`),
 * comparing base and head by rule alone (no update graph): a patch update is `low`; one minor is
 * `high`; two even minors on an `eus-` channel with `groundwork.io/control-plane-only: "true"` is
 * an EUS-to-EUS update (`high`); any other jump past a minor, or a major change, is a `blocker`
 * (OpenShift updates one minor at a time and the engine refuses it); a lower target is a
 * downgrade (`checkTarget`, the engine's rule): a `blocker` unless head accepts `Downgrade` and it
 * stays in its minor (a rollback, which the cluster-version operator allows only to the cluster's
 * previous version: `high`). A channel change, newly accepted risks (`high` for Groundwork's own,
 * `UnknownVersion` and `Downgrade`) and a new target are noted too; a new target adopts the
 * cluster's existing ClusterVersion. A removed ClusterVersion is left to the prune notes.
 */
export function clusterVersionRisks(pairs: readonly ManifestPair[]): RiskNote[] {
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (!isKind(pair, 'config.openshift.io', 'ClusterVersion') || !pair.head || pair.action === 'unchanged')
      continue;
    const subject = describeRef(pair.ref);
    const head = read(pair.head.object);
    if (!pair.base) {
      notes.push({
        severity: 'medium',
        code: 'ClusterVersionTargetAdded',
        subject,
        message: `Groundwork starts driving cluster updates: it adopts the cluster's ClusterVersion (the installer's; only the fields declared here change) and walks to target ${head.version ?? '(none)'} on channel ${head.channel ?? '(none)'}, one graph step at a time from the version the cluster runs`,
      });
      continue;
    }
    const base = read(pair.base.object);
    const versionNote = versionChange(base, head, subject);
    if (versionNote) notes.push(versionNote);
    if (base.channel !== head.channel) notes.push(channelChange(base.channel, head.channel, subject));
    const accepted = head.acceptedRisks.filter((r) => !base.acceptedRisks.includes(r));
    const own = accepted.filter((r) => (TARGET_RISKS as readonly string[]).includes(r));
    if (own.length > 0)
      notes.push({
        severity: 'high',
        code: 'ClusterVersionRisksAccepted',
        subject,
        message: `accepts ${own.join(', ')}: Groundwork no longer refuses a target ${own.map((r) => (r === 'Downgrade' ? 'older than the version the cluster runs' : 'that is not a published release')).join(' or ')}`,
      });
    const theirs = accepted.filter((r) => !own.includes(r));
    if (theirs.length > 0) {
      notes.push({
        severity: 'medium',
        code: 'ClusterVersionRisksAccepted',
        subject,
        message: `accepts conditional-update risk${theirs.length === 1 ? '' : 's'} ${theirs.join(', ')}: the cluster may take updates the update service flags as risky for clusters like it`,
      });
    }
  }
  return notes;
}

interface Target {
  version: string | undefined;
  channel: string | undefined;
  controlPlaneOnly: boolean;
  acceptedRisks: string[];
}

function read(obj: K8sObject): Target {
  const a = obj.metadata.annotations ?? {};
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  return {
    version: a[ANNOTATIONS.targetVersion],
    channel: typeof spec.channel === 'string' ? spec.channel : undefined,
    controlPlaneOnly: a[ANNOTATIONS.controlPlaneOnly] === 'true',
    acceptedRisks: acceptedRisksOf(obj),
  };
}

function versionChange(base: Target, head: Target, subject: string): RiskNote | undefined {
  const from = base.version ? parseVersion(base.version) : undefined;
  const to = head.version ? parseVersion(head.version) : undefined;
  if (!from || !to || from.compare(to) === 0) return undefined;
  const move = `target ${from.version} → ${to.version}`;
  if (from.major !== to.major) {
    return {
      severity: 'blocker',
      code: 'ClusterVersionMajor',
      subject,
      message: `${move} changes the major version: OpenShift has no update path across majors; the engine refuses it`,
    };
  }
  if (from.compare(to) > 0) {
    const down = checkTarget({ from: from.version, to: to.version, acceptedRisks: head.acceptedRisks }).find(
      (f) => f.risk === 'Downgrade',
    );
    return {
      severity: down?.accepted ? 'high' : 'blocker',
      code: 'ClusterVersionDowngrade',
      subject,
      message: down?.accepted
        ? `${move} is a downgrade, accepted (Downgrade): ${down.message}`
        : `${move} is a downgrade: ${down?.message ?? ''}; the engine refuses it. Fix: ${down?.fix ?? ''}`,
    };
  }
  const minors = to.minor - from.minor;
  if (minors === 0) {
    return {
      severity: 'low',
      code: 'ClusterVersionPatch',
      subject,
      message: `${move} (patch update): the nodes of every pool reboot into the new release, maxUnavailable at a time`,
    };
  }
  if (minors === 1) {
    return {
      severity: 'high',
      code: 'ClusterVersionMinor',
      subject,
      message: `${move} (minor update): check the ${from.major}.${to.minor} release notes, removed APIs and admin-acks, and that every operator supports ${from.major}.${to.minor}; every pool rolls to the new release`,
    };
  }
  const rule = {
    ...(head.channel ? { channel: head.channel } : {}),
    controlPlaneOnly: head.controlPlaneOnly,
  };
  if (isEusToEus(from, to, rule)) {
    return {
      severity: 'high',
      code: 'ClusterVersionEusToEus',
      subject,
      message: `${move} (EUS-to-EUS update): the control plane goes through ${from.major}.${from.minor + 1} with the worker pools paused, then the workers update once, to ${to.version}`,
    };
  }
  const skipped = skippedMinors(from, to, rule);
  return {
    severity: 'blocker',
    code: 'ClusterVersionSkipsMinors',
    subject,
    message:
      `${move} skips ${skipped.join(', ')}: OpenShift updates one minor at a time, so this target is invalid and the engine refuses it ` +
      `(only an EUS-to-EUS update, from an even minor to the next even minor on an eus- channel with controlPlaneOnly, may span two); ` +
      `target ${from.major}.${from.minor + 1} first`,
  };
}

function channelChange(from: string | undefined, to: string | undefined, subject: string): RiskNote {
  const parsed = to ? tryParseChannel(to) : undefined;
  const channel: Channel | undefined = parsed?.ok ? parsed.channel : undefined;
  const hint =
    channel?.tier === 'candidate'
      ? ': candidate releases are not supported for production clusters'
      : channel?.tier === 'fast'
        ? ': fast gets releases as soon as they are published, before stable'
        : channel?.tier === 'eus'
          ? ': eus channels offer even minors for EUS-to-EUS updates'
          : '';
  return {
    severity: channel?.tier === 'candidate' ? 'high' : 'medium',
    code: 'ClusterVersionChannel',
    subject,
    message: `update channel ${from ?? '(none)'} → ${to ?? '(none)'}${hint}`,
  };
}
