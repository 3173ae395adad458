import type { K8sObject } from '../../core/object.js';
import type { OwnedCRD } from './olm-catalog.js';

/** A CSV the OLM simulator resolved for a Subscription, with what it needs to build the manifests. */
export interface ResolvedOperator {
  readonly csv: string;
  readonly version: string;
  readonly package: string;
  readonly channel: string;
  /** CatalogSource name and namespace. */
  readonly source: string;
  readonly sourceNamespace: string;
  readonly replaces: string | undefined;
  readonly skips: readonly string[];
  readonly skipRange: string | undefined;
  readonly ownedCRDs: readonly OwnedCRD[];
  /**
   * For an operator OLM brought in as a dependency: the CSV that required it and the Subscription
   * OLM generates for it (`<package>-<channel>-<source>-<sourceNamespace>`).
   */
  readonly dependency?: { readonly of: string; readonly subscription: string };
}

/**
 * The Subscription OLM generates for a dependency it resolved (`pkg/controller/registry/resolver`
 * `newSubscription`): `Automatic`, starting at the resolved CSV, owned by no one.
 */
export function dependencySubscription(op: ResolvedOperator, namespace: string): K8sObject {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name: op.dependency?.subscription ?? op.package, namespace },
    spec: {
      channel: op.channel,
      name: op.package,
      source: op.source,
      sourceNamespace: op.sourceNamespace,
      startingCSV: op.csv,
      installPlanApproval: 'Automatic',
    },
  };
}

/** `<plural>.<group>`, the name of a CRD. */
export function crdName(crd: OwnedCRD): string {
  return `${crd.plural}.${crd.group}`;
}

/**
 * OLM's component label (`operators.coreos.com/<package>.<namespace>`), put on the objects of an
 * operator; the name part is cut to 63 characters and trailing `.`, `_`, `-` dropped, as OLM does.
 */
export function componentLabel(pkg: string, namespace: string): string {
  return `operators.coreos.com/${`${pkg}.${namespace}`.slice(0, 63).replace(/[._-]+$/, '')}`;
}

/**
 * Kubernetes version priority (`v1` > `v1beta2` > `v1beta1` > `v1alpha1` > others by name), the
 * order `kubectl` and the apiserver use; the first is the storage version of a built CRD.
 */
function byVersionPriority(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0];
    const level = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [level, -Number(m[1]), -Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
  return a.localeCompare(b);
}

/**
 * A minimal CRD for an owned API: namespaced, every version served, an open schema
 * (`x-kubernetes-preserve-unknown-fields`) and a status subresource, so operands can be created
 * and their status written. Real bundles ship full schemas; the simulator has none.
 */
export function crdManifest(crd: OwnedCRD): K8sObject {
  const versions = [...crd.versions].sort(byVersionPriority);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(crd) },
    spec: {
      group: crd.group,
      names: {
        kind: crd.kind,
        listKind: `${crd.kind}List`,
        plural: crd.plural,
        singular: crd.kind.toLowerCase(),
      },
      scope: 'Namespaced',
      versions: versions.map((name, i) => crdVersion(name, i === 0)),
    },
  };
}

export function crdVersion(name: string, storage: boolean): Record<string, unknown> {
  return {
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    subresources: { status: {} },
  };
}

/**
 * The ClusterServiceVersion OLM would create from the bundle: the CRD's required fields
 * (`displayName`, `install`) plus `version`, `replaces`, `skips`, the owned CRDs and the four
 * install modes. The install strategy names one Deployment, which the simulator does not create.
 */
export function csvManifest(op: ResolvedOperator, namespace: string): K8sObject {
  const deployment = `${op.package}-controller-manager`.slice(0, 63);
  const annotations: Record<string, string> = { 'operatorframework.io/properties': '{}' };
  if (op.skipRange) annotations['olm.skipRange'] = op.skipRange;
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'ClusterServiceVersion',
    metadata: {
      name: op.csv,
      namespace,
      labels: { [componentLabel(op.package, namespace)]: '' },
      annotations,
    },
    spec: {
      displayName: op.package,
      version: op.version,
      ...(op.replaces ? { replaces: op.replaces } : {}),
      ...(op.skips.length > 0 ? { skips: [...op.skips] } : {}),
      provider: { name: 'Groundwork OLM simulator' },
      customresourcedefinitions: {
        owned: op.ownedCRDs.map((c) => ({
          name: crdName(c),
          kind: c.kind,
          version: [...c.versions].sort(byVersionPriority)[0],
          displayName: c.kind,
        })),
      },
      installModes: [
        { type: 'OwnNamespace', supported: true },
        { type: 'SingleNamespace', supported: true },
        { type: 'MultiNamespace', supported: false },
        { type: 'AllNamespaces', supported: true },
      ],
      install: {
        strategy: 'deployment',
        spec: {
          deployments: [
            {
              name: deployment,
              spec: {
                replicas: 1,
                selector: { matchLabels: { 'control-plane': deployment } },
                template: {
                  metadata: { labels: { 'control-plane': deployment } },
                  spec: {
                    containers: [{ name: 'manager', image: `registry.invalid/${op.package}:v${op.version}` }],
                  },
                },
              },
            },
          ],
        },
      },
    },
  };
}
