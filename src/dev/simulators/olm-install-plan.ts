import { ApiError } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import { errorMessage } from '../../core/errors.js';
import { findCondition, type K8sObject } from '../../core/object.js';
import { PATHS, getOptional, objectPath } from './api.js';
import { sameJson } from './json.js';
import {
  componentLabel,
  crdManifest,
  crdName,
  crdVersion,
  csvManifest,
  dependencySubscription,
  type ResolvedOperator,
} from './olm-manifests.js';
import { writeStatus } from './status.js';

/** One `status.plan[]` step of an InstallPlan, with the manifest OLM applies embedded as JSON. */
interface PlanStep {
  resolving: string;
  resource: {
    group: string;
    version: string;
    kind: string;
    name: string;
    sourceName: string;
    sourceNamespace: string;
    manifest: string;
  };
  status: string;
}

interface InstallPlanStatus {
  phase: string;
  catalogSources: string[];
  plan?: PlanStep[];
  conditions?: {
    type: string;
    status: string;
    reason?: string;
    message?: string;
    lastTransitionTime?: string;
    lastUpdateTime?: string;
  }[];
  message?: string;
  startTime?: string;
  [field: string]: unknown;
}

/**
 * The steps of one InstallPlan for the resolved operators: every owned CRD (once), then every CSV,
 * then the Subscriptions OLM generates for dependencies, each `Unknown` until executed, as
 * `v1alpha1.OrderSteps` orders them (CRDs first).
 */
function planSteps(ops: readonly ResolvedOperator[], namespace: string): PlanStep[] {
  const crds = new Map<string, PlanStep>();
  const csvs: PlanStep[] = [];
  for (const op of ops) {
    for (const crd of op.ownedCRDs) {
      const name = crdName(crd);
      if (crds.has(name)) continue;
      crds.set(
        name,
        step(op, 'apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', name, crdManifest(crd)),
      );
    }
    csvs.push(
      step(
        op,
        'operators.coreos.com',
        'v1alpha1',
        'ClusterServiceVersion',
        op.csv,
        csvManifest(op, namespace),
      ),
    );
  }
  const subscriptions = ops
    .filter((op) => op.dependency)
    .map((op) =>
      step(
        op,
        'operators.coreos.com',
        'v1alpha1',
        'Subscription',
        op.dependency!.subscription,
        dependencySubscription(op, namespace),
      ),
    );
  return [...crds.values(), ...csvs, ...subscriptions];
}

function step(
  op: ResolvedOperator,
  group: string,
  version: string,
  kind: string,
  name: string,
  manifest: K8sObject,
): PlanStep {
  return {
    resolving: op.csv,
    resource: {
      group,
      version,
      kind,
      name,
      sourceName: op.source,
      sourceNamespace: op.sourceNamespace,
      manifest: JSON.stringify(manifest),
    },
    status: 'Unknown',
  };
}

/**
 * Creates an InstallPlan as OLM's `createInstallPlan` does: generated name `install-xxxxx`, the
 * namespace's Subscriptions as non-controller owners, `approved` only for `Automatic`, then the
 * status (phase `RequiresApproval` or `Installing`, catalog sources, steps) through the status
 * subresource. Returns the stored plan.
 */
export async function createInstallPlan(
  client: KubeClient,
  opts: {
    namespace: string;
    generation: number;
    manual: boolean;
    ops: readonly ResolvedOperator[];
    owners: readonly K8sObject[];
  },
): Promise<K8sObject> {
  const steps = planSteps(opts.ops, opts.namespace);
  const labels = Object.fromEntries(opts.ops.map((op) => [componentLabel(op.package, opts.namespace), '']));
  const created = await client.request<K8sObject>('POST', PATHS.installPlans(opts.namespace), {
    noRetry: true,
    body: {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'InstallPlan',
      metadata: {
        generateName: 'install-',
        namespace: opts.namespace,
        labels,
        ownerReferences: opts.owners.map((s) => ({
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'Subscription',
          name: s.metadata.name,
          uid: s.metadata.uid,
          blockOwnerDeletion: false,
          controller: false,
        })),
      },
      spec: {
        approval: opts.manual ? 'Manual' : 'Automatic',
        approved: !opts.manual,
        clusterServiceVersionNames: opts.ops.map((op) => op.csv),
        generation: opts.generation,
      },
    },
  });
  const status: InstallPlanStatus = {
    phase: opts.manual ? 'RequiresApproval' : 'Installing',
    catalogSources: [...new Set(opts.ops.map((op) => op.source))],
    plan: steps,
  };
  return writeStatus(client, objectPath(PATHS.installPlans(opts.namespace), created.metadata.name), status);
}

/**
 * One pass of OLM's InstallPlan sync (`transitionInstallPlanState`): an approved `RequiresApproval`
 * plan moves to `Installing`; an `Installing` plan applies its steps in order: CRDs first (created,
 * or their new versions added), and only once every CRD is Established the CSVs; when every step is
 * `Created` or `Present` the plan gets `Installed=True` and phase `Complete`. An apiserver refusal
 * fails the plan at once (`Installed=False`, `InstallComponentFailed`); OLM would retry until its
 * timeout first. `Complete` and `Failed` plans, and plans without steps, are left alone.
 * Returns true when it wrote the status.
 */
export async function syncInstallPlan(client: KubeClient, plan: K8sObject, now: string): Promise<boolean> {
  const current = plan.status as InstallPlanStatus | undefined;
  if (!current?.plan?.length || current.phase === 'Complete' || current.phase === 'Failed') return false;
  const next = structuredClone(current);
  const spec = plan.spec as { approved?: boolean };
  if (next.phase === 'RequiresApproval') {
    if (!spec.approved) return false;
    next.phase = 'Installing';
    delete next.message;
  } else if (next.phase === 'Installing') {
    next.startTime ??= now;
    try {
      await executeSteps(client, plan.metadata.namespace ?? '', next.plan ?? []);
      if ((next.plan ?? []).every((s) => s.status === 'Created' || s.status === 'Present')) {
        next.conditions = [
          { type: 'Installed', status: 'True', lastTransitionTime: now, lastUpdateTime: now },
        ];
        next.phase = 'Complete';
        delete next.message;
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) throw err;
      const message = err instanceof ApiError ? err.bodyMessage : errorMessage(err);
      next.conditions = [
        {
          type: 'Installed',
          status: 'False',
          reason: 'InstallComponentFailed',
          message,
          lastTransitionTime: now,
          lastUpdateTime: now,
        },
      ];
      next.phase = 'Failed';
      next.message = message;
    }
  } else {
    return false;
  }
  if (sameJson(next, current)) return false;
  await writeStatus(
    client,
    objectPath(PATHS.installPlans(plan.metadata.namespace), plan.metadata.name),
    next,
  );
  return true;
}

async function executeSteps(client: KubeClient, namespace: string, steps: PlanStep[]): Promise<void> {
  const crdSteps = steps.filter((s) => s.resource.kind === 'CustomResourceDefinition');
  for (const s of crdSteps) {
    if (s.status === 'Unknown')
      s.status = await ensureCrd(client, JSON.parse(s.resource.manifest) as K8sObject);
  }
  for (const s of crdSteps) {
    const crd = await getOptional(client, objectPath(PATHS.crds, s.resource.name));
    if (findCondition(crd, 'Established')?.status !== 'True') return; // the next pass looks again
  }
  for (const kind of ['ClusterServiceVersion', 'Subscription'] as const) {
    const collection = kind === 'Subscription' ? PATHS.subscriptions(namespace) : PATHS.csvs(namespace);
    for (const s of steps) {
      if (s.resource.kind !== kind || s.status !== 'Unknown') continue;
      if (await getOptional(client, objectPath(collection, s.resource.name))) {
        s.status = 'Present';
        continue;
      }
      await client.request('POST', collection, { body: JSON.parse(s.resource.manifest), noRetry: true });
      s.status = 'Created';
    }
  }
}

/** Creates the CRD, or adds the versions it lacks to an existing one (keeping its storage version). */
async function ensureCrd(client: KubeClient, manifest: K8sObject): Promise<string> {
  const path = objectPath(PATHS.crds, manifest.metadata.name);
  const existing = await getOptional(client, path);
  if (!existing) {
    await client.request('POST', PATHS.crds, { body: manifest, noRetry: true });
    return 'Created';
  }
  const versions = (existing.spec as { versions: { name: string }[] }).versions;
  const wanted = (manifest.spec as { versions: { name: string }[] }).versions.map((v) => v.name);
  const missing = wanted.filter((v) => !versions.some((e) => e.name === v));
  if (missing.length > 0) {
    const spec = {
      ...(existing.spec as object),
      versions: [...versions, ...missing.map((v) => crdVersion(v, false))],
    };
    await client.request('PUT', path, { body: { ...existing, spec } });
  }
  return 'Present';
}
