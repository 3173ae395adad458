import type { K8sObject } from './object.js';

/**
 * Annotations through which constructs tell the engine how to treat an object. They are applied to
 * the cluster with the object, so the live object documents its own policy (like Argo CD's
 * `argocd.argoproj.io/sync-options`). Frozen names: part of the user contract.
 */
export const ANNOTATIONS = {
  /** JSON array of JSON pointers (RFC 6901) whose differences plan and drift ignore, e.g. `["/spec/replicas"]`. */
  ignoreDifferences: 'groundwork.io/ignore-differences',
  /** `keep`: never prune this object, even when it leaves the desired state. */
  prune: 'groundwork.io/prune',
  /** `force`: take ownership on a field-manager conflict instead of reporting it. */
  conflicts: 'groundwork.io/conflicts',
  /** `recreate`: delete and re-create when the server rejects a change to an immutable field. */
  immutable: 'groundwork.io/on-immutable',
  /**
   * `create-only`: create the object once and never update it; once created (it is in the inventory),
   * a deleted object is not re-created. For Jobs that delete themselves (`ttlSecondsAfterFinished`)
   * and other run-once objects; rename the object to run it again.
   */
  apply: 'groundwork.io/apply',
  /** Explicit apply stage (see src/core/stages.ts). */
  stage: 'groundwork.io/stage',
  /**
   * An integer: the object is a hook of its stage (a Helm chart's `pre-install` or `post-install`
   * hook, with its `helm.sh/hook-weight`). Hooks are applied after the stage's other objects, one at
   * a time in ascending weight (then name, then kind, as helm 3 runs them), each waited for (a Job
   * until Complete, a Pod until Succeeded, any other kind until it exists) before the next one and
   * before the next stage; a failed hook stops the apply (`HookFailed`). See src/plan/hook-order.ts.
   */
  hookWeight: 'groundwork.io/hook-weight',
  /** `<namespace>/<subscription>` of the operator whose CSV this operand waits for. */
  operator: 'groundwork.io/operator',
  /** ClusterVersion intent: the target version, reached one graph step at a time. */
  targetVersion: 'groundwork.io/target-version',
  /** ClusterVersion intent: optional release image digest of the target. */
  targetImage: 'groundwork.io/target-image',
  /** ClusterVersion intent: JSON array of accepted conditional-update risk names. */
  acceptedRisks: 'groundwork.io/accepted-risks',
  /** ClusterVersion intent: seconds a `Failing=True` update may last before Groundwork calls it failed. */
  failingGrace: 'groundwork.io/failing-grace-seconds',
  /** ClusterVersion intent: `true` to take EUS-to-EUS updates with worker pools paused. */
  controlPlaneOnly: 'groundwork.io/control-plane-only',
  /** MachineConfigPool: JSON maintenance windows (see src/machine-config). */
  maintenanceWindows: 'groundwork.io/maintenance-windows',
  /** MachineConfigPool: `true` allows Groundwork to pause/unpause this pool (required for `master`). */
  managePause: 'groundwork.io/manage-pause',
} as const;

/**
 * Annotation Groundwork writes on every object it applies: the inventory that owns it,
 * `<namespace>/<name>` of the inventory ConfigMap (as kubernetes-sigs/cli-utils'
 * `config.k8s.io/owning-inventory`). Prune deletes only objects that name their own inventory here
 * (see src/plan/ownership.ts). Frozen name and format. Not a construct policy: synth never sets it.
 */
export const OWNER_ANNOTATION = 'groundwork.io/owning-inventory';

/** Per-object policy read from annotations. */
export interface ObjectPolicy {
  ignorePointers: string[];
  keep: boolean;
  forceConflicts: boolean;
  recreateOnImmutable: boolean;
  createOnly: boolean;
}

/** Reads an object's policy; malformed values are ignored (synth validates them on the way in). */
export function policyOf(obj: Pick<K8sObject, 'metadata'>): ObjectPolicy {
  const a = obj.metadata.annotations ?? {};
  return {
    ignorePointers: stringList(a[ANNOTATIONS.ignoreDifferences]),
    keep: a[ANNOTATIONS.prune] === 'keep',
    forceConflicts: a[ANNOTATIONS.conflicts] === 'force',
    recreateOnImmutable: a[ANNOTATIONS.immutable] === 'recreate',
    createOnly: a[ANNOTATIONS.apply] === 'create-only',
  };
}

/**
 * The hook weight of an object (`ANNOTATIONS.hookWeight`), or undefined when it is no hook. A value
 * that is not an integer is weight 0, as helm reads `helm.sh/hook-weight` (`strconv.Atoi`, errors
 * ignored). Never throws.
 */
export function hookWeightOf(obj: Pick<K8sObject, 'metadata'>): number | undefined {
  const raw = obj.metadata.annotations?.[ANNOTATIONS.hookWeight];
  if (raw === undefined) return undefined;
  return /^[-+]?\d{1,15}$/.test(raw) ? Number.parseInt(raw, 10) : 0;
}

/**
 * The accepted conditional-update risks of a ClusterVersion intent (`ANNOTATIONS.acceptedRisks`).
 * Synth writes a JSON array of names; a hand-written value that is not JSON accepts nothing (the
 * safe reading: a risk not accepted refuses the step) and entries that are not strings are left out.
 */
export function acceptedRisksOf(obj: Pick<K8sObject, 'metadata'>): string[] {
  return stringList(obj.metadata.annotations?.[ANNOTATIONS.acceptedRisks]);
}

/** The strings of a JSON array annotation; `[]` when absent or not JSON. Never throws. */
function stringList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
