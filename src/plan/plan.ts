import { policyOf } from '../core/annotations.js';
import { definedKind } from '../core/crd-kind.js';
import { describeRef, parseId, refOf, type ObjectId } from '../core/object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';
import { looksUnchanged } from './compare.js';
import { gateHooks } from './hook-phase.js';
import { diffValues } from './field-diff.js';
import { isImmutableProblem, RECREATE_HINT, trimServerMessage } from './immutable.js';
import { parsePointer, withoutPointers } from './json-pointer.js';
import { ownersOf } from './managed-fields.js';
import { normalize } from './normalize.js';
import { isManualManager } from './out-of-band.js';
import { withNamespaceContents } from './namespace-contents.js';
import { terminatingNamespaces } from './terminating-namespaces.js';
import { appliedBy, ownershipOf } from './ownership.js';
import { Plan } from './plan-result.js';
import { redactSecret } from '../core/redact.js';
import { stageOf } from '../core/stages.js';
import type { DryRunProblem, PlanItem } from './types.js';
import type { UnchangedMemo } from './unchanged-memo.js';

/** The field manager name Groundwork applies with. Frozen: changing it would orphan field ownership. */
export const FIELD_MANAGER = 'groundwork';

const ADOPT_MESSAGE = 'exists, not applied by Groundwork yet: applied to take its fields from kubectl';

/** What the observer saw: the input of `plan` besides the desired manifests. */
export interface Observation {
  /** Live objects of desired and inventory ids that exist. */
  live: ReadonlyMap<ObjectId, K8sObject>;
  /** Server-side dry-run results for the ids `needsDryRun` named (an object, or the problem). */
  dryRun: ReadonlyMap<ObjectId, K8sObject | DryRunProblem>;
  /** Ids recorded by the last apply; undefined before the first one. */
  inventory: ReadonlySet<ObjectId> | undefined;
  /** Lists that failed (kind and namespace): their objects are skipped and nothing is pruned. */
  failedLists: readonly { apiVersion: string; kind: string; namespace: string; message: string }[];
  /** apiVersion/kind pairs the server does not serve yet (a CRD in this apply or from an operator). */
  unknownKinds: ReadonlySet<string>;
  /** apiVersion/kind pairs the server serves as namespaced; absent: scope is not checked. */
  namespacedKinds?: ReadonlySet<string>;
  /** Live custom resources of the CRDs that leave git (by CRD id); absent: not checked. */
  customResources?: ReadonlyMap<ObjectId, readonly ObjectId[]>;
  /** Objects listed in the Namespaces that leave git (by namespace name); absent: not checked. */
  namespaceContents?: ReadonlyMap<string, readonly ObjectId[]>;
}

interface PlanOptions {
  platform: string;
  overlay: string;
  revision?: string;
  /** Apply will force conflicts for every object (else only for objects annotated to). @default false */
  force?: boolean;
  /**
   * The inventory, `<namespace>/<name>` (see `inventoryOwner`): prune candidates must be its own
   * (`ownershipOf`), the rest are skipped as `NotOwned`. Absent: only objects Groundwork's field
   * manager applied and that carry no ownership annotation can be pruned.
   */
  owner?: string;
}

/**
 * The objects whose fate a server-side dry-run must decide: desired and live, and not already
 * equal by the request-free test (`looksUnchanged`). A freshly applied platform yields none.
 * With `memo`, an answer given before for the same live object and manifest is reused
 * (`UnchangedMemo`).
 */
export function needsDryRun(
  desired: readonly Manifest[],
  live: ReadonlyMap<ObjectId, K8sObject>,
  opts: { memo?: UnchangedMemo } = {},
): ObjectId[] {
  const unchanged = (m: Manifest, l: K8sObject) =>
    looksUnchanged(m.object, l, { manager: FIELD_MANAGER, ignore: policyOf(m.object).ignorePointers });
  return desired
    .filter((m) => {
      const l = live.get(m.id);
      // A create-only object that exists is never updated: nothing to ask the server.
      if (l === undefined || policyOf(m.object).createOnly) return false;
      return !(opts.memo ? opts.memo.answer(m, l, () => unchanged(m, l)) : unchanged(m, l));
    })
    .map((m) => m.id);
}

/**
 * Pairs desired manifests with what the observer saw and decides one action per object.
 * Pure: no I/O. Prune candidates are listed as `prune`; whether pruning may run is for
 * `pruneRefusal` and the apply options to say.
 */
export function plan(desired: readonly Manifest[], observed: Observation, opts: PlanOptions): Plan {
  const items: PlanItem[] = [];
  const desiredIds = new Set(desired.map((m) => m.id));
  const crdKinds = kindsDefinedBy(desired);
  const terminating = terminatingNamespaces(desired, observed.live);
  const planned = desired.map((m) =>
    planDesired(m, observed, { forceAll: opts.force ?? false, crdKinds, terminating }),
  );
  // A chart's hooks run in helm's phases: install-only on the first install, upgrade-only on a change.
  items.push(...gateHooks(planned, observed));
  let notOwned = 0;
  for (const id of [...(observed.inventory ?? [])].sort()) {
    if (desiredIds.has(id)) continue;
    const live = observed.live.get(id);
    if (!live) continue;
    const policy = policyOf(live);
    const ref = parseId(id);
    const stage = stageOf(live);
    const ownership = ownershipOf(live, { owner: opts.owner, fieldManager: FIELD_MANAGER });
    if (!ownership.owned) {
      const base = { id, ref, stage, diff: [], policy, live: redactSecret(live) };
      items.push({ ...base, action: 'skip', reason: 'NotOwned', message: ownership.message });
      notOwned++;
      continue;
    }
    const blocked = pruneBlocker(id, live, desired, observed, opts.owner);
    items.push(
      blocked
        ? { id, ref, stage, action: 'skip', ...blocked, diff: [], policy, live: redactSecret(live) }
        : policy.keep
          ? {
              id,
              ref,
              stage,
              action: 'skip',
              reason: 'KeepAnnotation',
              message: 'annotated groundwork.io/prune: keep',
              diff: [],
              policy,
              live: redactSecret(live),
            }
          : withNamespaceContents(
              { id, ref, stage, action: 'prune', diff: [], policy, live: redactSecret(live) },
              observed.namespaceContents,
              { desired: desiredIds, inventory: observed.inventory ?? new Set() },
            ),
    );
  }
  return new Plan({
    ...opts,
    items,
    failedLists: observed.failedLists,
    desiredCount: desired.length,
    // Entries that are not ours do not dilute the prune-share guard (forged ids would weaken it).
    inventorySize: observed.inventory && observed.inventory.size - notOwned,
  });
}

/**
 * Why pruning this object would destroy what git still declares, if it would: a Namespace that holds
 * desired objects (the namespace controller deletes everything in it), a CRD whose custom resources
 * exist and are not pruned by this plan too (deleting a CRD deletes every object of its kind).
 */
function pruneBlocker(
  id: ObjectId,
  live: K8sObject,
  desired: readonly Manifest[],
  observed: Observation,
  owner: string | undefined,
): { reason: 'NamespaceInUse' | 'CrdInUse'; message: string } | undefined {
  if (live.kind === 'Namespace' && live.apiVersion === 'v1') {
    const inside = desired.filter((m) => m.object.metadata.namespace === live.metadata.name);
    if (inside.length === 0) return undefined;
    return {
      reason: 'NamespaceInUse',
      message: `not pruned: git still declares ${inside.length} object(s) in it (${examples(inside.map((m) => m.id))}); deleting the Namespace would delete them. Keep the Namespace in git, or remove them too`,
    };
  }
  if (live.kind !== 'CustomResourceDefinition') return undefined;
  // Only what this plan may delete leaves with the CRD; an object that is not ours stays.
  const mayPrune = (i: ObjectId) => {
    const obj = observed.live.get(i);
    return !!obj && ownershipOf(obj, { owner, fieldManager: FIELD_MANAGER }).owned;
  };
  const leaving = new Set(
    [...(observed.inventory ?? [])].filter((i) => !desired.some((m) => m.id === i) && mayPrune(i)),
  );
  const staying = (observed.customResources?.get(id) ?? []).filter((cr) => !leaving.has(cr));
  if (staying.length === 0) return undefined;
  return {
    reason: 'CrdInUse',
    message: `not pruned: ${staying.length} custom resource(s) of its kind exist (${examples(staying)}) and deleting the CRD would delete them. Delete them first, or keep the CRD in git`,
  };
}

function examples(ids: readonly ObjectId[]): string {
  const shown = ids.slice(0, 3).map((i) => describeRef(parseId(i)));
  return ids.length > 3 ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** `group/Kind` of every kind the desired CRDs define. */
function kindsDefinedBy(desired: readonly Manifest[]): Set<string> {
  const out = new Set<string>();
  for (const m of desired) {
    if (m.object.kind !== 'CustomResourceDefinition') continue;
    const defined = definedKind(m.object);
    if (defined) out.add(`${defined.group}/${defined.kind}`);
  }
  return out;
}

function planDesired(
  m: Manifest,
  observed: Observation,
  ctx: {
    forceAll: boolean;
    crdKinds: ReadonlySet<string>;
    /** Desired Namespaces being deleted, with what holds them (`terminatingNamespaces`). */
    terminating: ReadonlyMap<string, string>;
  },
): PlanItem {
  const { forceAll, crdKinds, terminating } = ctx;
  const policy = policyOf(m.object);
  const base = {
    id: m.id,
    ref: refOf(m.object),
    stage: m.stage,
    source: m.source,
    policy,
    desired: m.object,
    diff: [],
  };
  const failed = observed.failedLists.find(
    (f) =>
      f.kind === m.object.kind &&
      f.apiVersion === m.object.apiVersion &&
      (f.namespace === '' || f.namespace === (m.object.metadata.namespace ?? '')),
  );
  if (failed)
    return {
      ...base,
      action: 'skip',
      reason: 'ListFailed',
      message: `could not list ${m.object.kind}: ${failed.message}`,
    };
  const scoped = observed.namespacedKinds?.has(`${m.object.apiVersion}/${m.object.kind}`) ?? false;
  if (scoped && !m.object.metadata.namespace) {
    const message = `${m.object.kind} is namespaced but has no metadata.namespace`;
    return {
      ...base,
      action: 'create',
      problem: { code: 'NamespaceMissing', message: `${message}; set metadata.namespace on ${m.source}` },
      message,
    };
  }
  const live = observed.live.get(m.id);
  const held = terminating.get(m.object.kind === 'Namespace' ? m.object.metadata.name : '');
  if (live && held && m.object.apiVersion === 'v1')
    return {
      ...base,
      live: redactSecret(live),
      action: 'skip',
      reason: 'NamespaceTerminating',
      message: held,
    };
  if (policy.createOnly && (live || observed.inventory?.has(m.id))) {
    return {
      ...base,
      ...(live ? { live: redactSecret(live) } : {}),
      action: 'skip',
      reason: 'CreateOnly',
      message: live
        ? 'create-only: exists, never updated'
        : 'create-only: created before and since deleted; not re-created (rename it to run again)',
    };
  }
  if (!live) {
    if (m.object.kind === 'ClusterVersion' && !(isPlainObject(m.object.spec) && m.object.spec.clusterID)) {
      return {
        ...base,
        action: 'skip',
        reason: 'NotCreatedByGroundwork',
        message: 'the installer creates the ClusterVersion; Groundwork only updates it',
      };
    }
    // The apiserver refuses creates in a Namespace being deleted: said here, not sent by apply.
    const into = terminating.get(m.object.metadata.namespace ?? '');
    if (into)
      return {
        ...base,
        action: 'create',
        problem: { code: 'NamespaceTerminating', message: into },
        message: into,
      };
    const unknown = observed.unknownKinds.has(`${m.object.apiVersion}/${m.object.kind}`);
    // A create the server's dry-run refused (see `createsToDryRun`): apply would be refused the same way.
    const refused = observed.dryRun.get(m.id);
    if (refused && !isObject(refused))
      return { ...base, action: 'create', problem: refused, message: refused.message };
    if (!unknown) return { ...base, action: 'create' };
    const { group } = splitApiVersion(m.object.apiVersion);
    if (m.stage === 'operands')
      return {
        ...base,
        action: 'create',
        reason: 'AwaitsOperator',
        message: `${m.object.kind} is served once its operator installs its CRD`,
      };
    if (crdKinds.has(`${group}/${m.object.kind}`))
      return {
        ...base,
        action: 'create',
        reason: 'CrdInThisApply',
        message: `${m.object.kind} is served once the CRD in this apply is Established`,
      };
    // Nothing in this apply will serve it: the apply would wait for a CRD that never comes.
    const crd = `${m.object.kind.toLowerCase()}s.${group}`;
    const message = `${m.object.kind} (${m.object.apiVersion}) is not served by the cluster and no CRD in this platform defines it`;
    return {
      ...base,
      action: 'create',
      problem: {
        code: 'KindNotServed',
        message: `${message}; install its CRD (likely ${crd}) or the operator that brings it`,
      },
      message,
    };
  }
  const liveView = { ...base, live: redactSecret(live) };
  // Created by someone else (kubectl, a script): the first apply takes ownership even when the
  // values agree, so that a key later removed from git is removed from the cluster too. It forces
  // kubectl's fields, as Flux does: the server also sees conflicts a diff cannot (an atomic struct
  // such as `fieldRef` that kubectl sent without the defaulted `apiVersion`).
  const changed = appliedBy(live, FIELD_MANAGER) ? ('update' as const) : ('adopt' as const);
  const adopt =
    changed === 'adopt' ? { message: ADOPT_MESSAGE, policy: { ...policy, forceConflicts: true } } : {};
  const dry = observed.dryRun.get(m.id);
  if (dry === undefined)
    return changed === 'adopt'
      ? { ...liveView, action: 'adopt', ...adopt }
      : { ...liveView, action: 'unchanged' };
  if (!isObject(dry))
    return { ...failedDryRun(liveView, dry), ...(changed === 'adopt' ? { action: 'adopt' } : {}) };
  const before = withoutPointers(normalize(live), policy.ignorePointers);
  const after = withoutPointers(normalize(dry), policy.ignorePointers);
  const diff = diffValues(redactSecret(before), redactSecret(after)).map((d) => {
    const owners = d.op === 'add' ? [] : ownersOf(live, parsePointer(d.path));
    return owners.length ? { ...d, owners } : d;
  });
  if (diff.length === 0)
    return changed === 'adopt'
      ? { ...liveView, action: 'adopt', ...adopt }
      : { ...liveView, action: 'unchanged' };
  // The dry-run is forced so the diff is complete; a real apply without force is refused when
  // another manager owns a field it changes, and the plan says so up front.
  const conflicts = diff.flatMap((d) =>
    (d.owners ?? [])
      .filter((o) => o !== FIELD_MANAGER)
      .slice(0, 1)
      .map((manager) => ({ manager, field: d.path })),
  );
  // A controller's field is never taken without asking, adopting or not.
  const foreign = conflicts.filter((c) => changed === 'update' || !isManualManager(c.manager));
  if (foreign.length > 0 && !forceAll && !policy.forceConflicts) {
    const message = `conflict with ${[...new Set(conflicts.map((c) => c.manager))].join(', ')} on ${conflicts.map((c) => c.field).join(', ')}`;
    return {
      ...liveView,
      action: changed,
      diff,
      problem: { code: 'Conflict', message, conflicts },
      message,
    };
  }
  return { ...liveView, action: changed, diff, ...adopt };
}

/** An update whose dry-run the server refused: a planned recreate, or the problem apply will hit. */
function failedDryRun(item: Omit<PlanItem, 'action'>, dry: DryRunProblem): PlanItem {
  if (!isImmutableProblem(dry)) return { ...item, action: 'update', problem: dry, message: dry.message };
  if (item.policy.recreateOnImmutable) {
    return {
      ...item,
      action: 'update',
      reason: 'Recreate',
      message: `an immutable field changed: apply deletes and re-creates it (server: ${trimServerMessage(dry.message)})`,
    };
  }
  const message = `a changed field is immutable; ${RECREATE_HINT} (server: ${trimServerMessage(dry.message)})`;
  return { ...item, action: 'update', problem: { code: 'Immutable', message }, message };
}

function isObject(x: K8sObject | DryRunProblem): x is K8sObject {
  return (x as K8sObject).metadata !== undefined;
}

/**
 * The body to server-side apply for a desired object. For an object that exists, ignored fields
 * are left out so Groundwork neither resets them nor keeps owning them (an HPA keeps `replicas`);
 * on create they are sent, so the object starts complete.
 */
export function applyBody(desired: K8sObject, liveExists: boolean): K8sObject {
  return liveExists ? withoutPointers(desired, policyOf(desired).ignorePointers) : desired;
}
