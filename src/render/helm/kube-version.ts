import type { IConstruct } from 'constructs';

// The mark `Platform` sets on itself (platform.ts). Read here by its registry name, not imported:
// this module is loaded from inside cdk8s (the bundle's `Helm`), before cdk8s has finished loading.
const PLATFORM = Symbol.for('groundwork.Platform');

/**
 * The Kubernetes version an OpenShift minor ships: OpenShift 4.N runs Kubernetes 1.(N+13)
 * (4.14 → 1.27, 4.16 → 1.29, 4.18 → 1.31). Pure.
 *
 * @example
 * kubeVersionOfOpenShift(16); // 'v1.29.0'
 */
export function kubeVersionOfOpenShift(minor: number): string {
  return `v1.${minor + 13}.0`;
}

/**
 * The kube version charts under `scope` render for: that of the enclosing `Platform`'s
 * `openshiftVersion`, or undefined outside a Platform (helm's own default then).
 */
export function defaultKubeVersion(scope: IConstruct): string | undefined {
  for (let s: IConstruct | undefined = scope; s; s = s.node.scope) {
    const marked = s as unknown as Record<symbol, unknown> & { openshiftMinor?: unknown };
    if (marked[PLATFORM] !== true) continue;
    return typeof marked.openshiftMinor === 'number' && marked.openshiftMinor > 0
      ? kubeVersionOfOpenShift(marked.openshiftMinor)
      : undefined;
  }
  return undefined;
}
