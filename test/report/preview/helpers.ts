import type { K8sObject } from '../../../src/core/object.js';
import { pairManifests, type ManifestPair } from '../../../src/report/preview/manifest-pair.js';
import { compareManifests, setHash, toManifest } from '../../../src/render/synth/manifest.js';
import type { SynthResult } from '../../../src/render/synth/synthesize.js';

/** A SynthResult of these objects, as synth would return it (canonical, sorted, hashed). */
export function result(overlay: string, objects: readonly K8sObject[]): SynthResult {
  const manifests = objects
    .map((o) => toManifest(o, `platform/${o.kind}/${o.metadata.name}`))
    .sort(compareManifests);
  return { platform: 'test', overlay, manifests, hash: setHash(manifests), warnings: [] };
}

/** Base and head objects paired as the risk functions see them. */
export function pairs(base: readonly K8sObject[], head: readonly K8sObject[]): ManifestPair[] {
  return pairManifests(result('x', base).manifests, result('x', head).manifests);
}

export function clusterVersion(
  version: string,
  channel: string,
  annotations: Record<string, string> = {},
): K8sObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', annotations: { 'groundwork.io/target-version': version, ...annotations } },
    spec: { channel },
  };
}

export function subscription(name: string, spec: Record<string, unknown>): K8sObject {
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name, namespace: name },
    spec: {
      name,
      channel: 'stable',
      installPlanApproval: 'Automatic',
      source: 'redhat-operators',
      sourceNamespace: 'openshift-marketplace',
      ...spec,
    },
  };
}

export function machineConfig(
  name: string,
  labels: Record<string, string>,
  files: string[] = ['/etc/motd'],
): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name, labels },
    spec: {
      config: {
        ignition: { version: '3.4.0' },
        storage: { files: files.map((path) => ({ path, mode: 420 })) },
      },
    },
  };
}

export function pool(
  name: string,
  spec: Record<string, unknown>,
  annotations?: Record<string, string>,
): K8sObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec,
  };
}

export function namespace(name: string, annotations?: Record<string, string>): K8sObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(annotations ? { annotations } : {}) } };
}

export function configMap(
  name: string,
  ns: string,
  data: Record<string, string>,
  annotations?: Record<string, string>,
): K8sObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, ...(annotations ? { annotations } : {}) },
    data,
  };
}
