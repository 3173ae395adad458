import { describeRef, type ObjectId } from '../../core/object-id.js';
import type { StageName } from '../../core/stages.js';
import { toYaml } from '../../render/synth/canonical.js';
import type { Manifest } from '../../render/synth/manifest.js';
import type { SynthResult } from '../../render/synth/synthesize.js';
import type { ValidationIssue } from '../../render/synth/validation.js';
import { isKind, pairManifests, stageOfPair, type ManifestPair } from './manifest-pair.js';
import { machineConfigDiff } from './machine-config-diff.js';
import { redactForPreview } from './redact-secret.js';
import { compareRiskNotes, type RiskNote } from './risk-note.js';
import { clusterVersionRisks } from './risks/cluster-version.js';
import { clusterVersionPathRisks, type ClusterVersionPathOptions } from './risks/cluster-version-path.js';
import { clusterVersionKnownRisks, type ClusterVersionKnownOptions } from './risks/cluster-version-known.js';
import { machineConfigRisks } from './risks/machine-config.js';
import { chartRisks } from './risks/chart.js';
import { pruneRisks } from './risks/prune.js';
import { rbacRisks } from './risks/rbac.js';
import { subscriptionRisks } from './risks/subscription.js';
import { unifiedDiff } from './unified-diff.js';

/** `changed`/`unchanged`: in both revisions; `added`: a new overlay; `removed`: gone from head. */
type OverlayStatus = 'changed' | 'unchanged' | 'added' | 'removed';

/** One object that differs between base and head. */
export interface ObjectChange {
  action: 'added' | 'changed' | 'removed';
  id: ObjectId;
  /** `Kind/namespace/name` or `Kind/name`. */
  object: string;
  kind: string;
  stage: StageName;
  /** Construct path that emits it (head's, or base's for a removed object). */
  source: string;
  /** Unified diff of the canonical YAML, Secret values redacted. */
  diff: string;
  /**
   * MachineConfigs only: the diff of what the node gets, decoded (files, units, dropins, kernel
   * arguments; see `machineConfigDiff`). Absent for other kinds and when only metadata changed.
   */
  nodeDiff?: string;
}

/** Added, changed and removed counts of one kind. */
interface KindSummary {
  kind: string;
  added: number;
  changed: number;
  removed: number;
}

/** What changes in one overlay, and what is risky about it. */
export interface OverlayPreview {
  overlay: string;
  status: OverlayStatus;
  /** Per kind, in apply order of the kind's first change. */
  summary: KindSummary[];
  /** In apply order. */
  changes: ObjectChange[];
  /** Worst first. */
  risks: RiskNote[];
  /** Head's synth warnings. */
  warnings: ValidationIssue[];
}

/**
 * Compares one overlay's desired state in base and head: the changed objects with their diffs, a
 * count per kind, and every risk note (cluster version, machine configs and pools, subscriptions,
 * pruning, cluster-admin grants), and with `opts.graph` the update path of a ClusterVersion target change. `base` undefined is an overlay new in head (everything added); `head` undefined is an
 * overlay removed from head (`OverlayRemoved`, no object list: nothing is pruned by removing an
 * overlay, but the clusters that use it can no longer sync). Pure.
 */
export function previewOverlay(
  overlay: string,
  base: SynthResult | undefined,
  head: SynthResult | undefined,
  opts: ClusterVersionPathOptions & ClusterVersionKnownOptions = {},
): OverlayPreview {
  if (!head) {
    return {
      overlay,
      status: 'removed',
      summary: [],
      changes: [],
      risks: [
        {
          severity: 'high',
          code: 'OverlayRemoved',
          subject: `overlay ${overlay}`,
          message: `the overlay is removed: a cluster that syncs it fails to synthesize and keeps its last applied state`,
        },
      ],
      warnings: [],
    };
  }
  const pairs = pairManifests(base?.manifests ?? [], head.manifests);
  const changed = pairs.filter((p) => p.action !== 'unchanged');
  const changes = changed.map(toChange);
  const risks = withSources(
    [
      ...clusterVersionRisks(pairs),
      ...clusterVersionPathRisks(pairs, opts),
      ...clusterVersionKnownRisks(pairs, opts),
      ...machineConfigRisks(pairs),
      ...subscriptionRisks(pairs),
      ...pruneRisks(pairs),
      ...rbacRisks(pairs),
      ...chartRisks(base?.charts ?? [], head.charts ?? [], pairs),
    ],
    pairs,
  ).sort(compareRiskNotes);
  return {
    overlay,
    status: !base ? 'added' : changes.length > 0 ? 'changed' : 'unchanged',
    summary: summarize(changes),
    changes,
    risks,
    warnings: head.warnings,
  };
}

/** Each note about an emitted object gets that object's construct path. */
function withSources(notes: readonly RiskNote[], pairs: readonly ManifestPair[]): RiskNote[] {
  const sources = new Map(pairs.map((p) => [describeRef(p.ref), (p.head ?? p.base)!.source]));
  return notes.map((n) => {
    const source = n.source ?? sources.get(n.subject);
    return source ? { ...n, source } : n;
  });
}

function toChange(pair: ManifestPair): ObjectChange {
  const name = describeRef(pair.ref);
  const nodeDiff = isKind(pair, 'machineconfiguration.openshift.io', 'MachineConfig')
    ? machineConfigDiff(pair.base?.object, pair.head?.object)
    : '';
  // Every OpenShift cluster has its ClusterVersion (the installer creates it) and Groundwork never
  // creates one: a target new in head adopts the cluster's object and changes the fields it declares.
  const adopted = !pair.base && isKind(pair, 'config.openshift.io', 'ClusterVersion');
  return {
    action: adopted ? 'changed' : (pair.action as ObjectChange['action']),
    id: pair.id,
    object: name,
    kind: pair.ref.kind,
    stage: stageOfPair(pair),
    source: (pair.head ?? pair.base)!.source,
    diff: unifiedDiff(yamlOf(pair.base), yamlOf(pair.head), {
      fromName: pair.base
        ? `base/${name}`
        : adopted
          ? `cluster/${name} (adopted: only the fields below are set)`
          : '/dev/null',
      toName: pair.head ? `head/${name}` : '/dev/null',
    }),
    ...(nodeDiff ? { nodeDiff } : {}),
  };
}

function yamlOf(m: Manifest | undefined): string {
  return m ? toYaml(redactForPreview(m.object)) : '';
}

function summarize(changes: readonly ObjectChange[]): KindSummary[] {
  const byKind = new Map<string, KindSummary>();
  for (const c of changes) {
    const s = byKind.get(c.kind) ?? { kind: c.kind, added: 0, changed: 0, removed: 0 };
    s[c.action]++;
    byKind.set(c.kind, s);
  }
  return [...byKind.values()];
}
