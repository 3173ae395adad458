import { describe, expect, it } from 'vitest';
import { OWNER_ANNOTATION } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { plan } from '../../src/plan/plan.js';
import { findUnmanaged, MAX_UNMANAGED, unmanagedDrift, unmanagedScope } from '../../src/plan/unmanaged.js';
import { UNMANAGED_OFF, type UnmanagedConfig } from '../../src/project/unmanaged-config.js';
import { configMap, synthOf } from '../harness/engine.js';

const namespace = (name: string): K8sObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const desired = [namespace('shop'), configMap('shop', 'wanted', {}), configMap('other', 'elsewhere', {})];
const p = plan(
  synthOf(desired, { overlay: 'dev' }).manifests,
  { live: new Map(), dryRun: new Map(), inventory: new Set(), failedLists: [], unknownKinds: new Set() },
  { platform: 'p', overlay: 'dev' },
);
const on: UnmanagedConfig = { report: true, failOn: false, ignore: [] };

const listed = (...objects: K8sObject[]) => new Map(objects.map((o) => [idOf(o), o]));
const names = (config: UnmanagedConfig, ...objects: K8sObject[]) =>
  findUnmanaged(p, listed(...objects), unmanagedScope(p, config), config).objects.map((o) => o.ref.name);

describe('unmanagedScope', () => {
  it('looks nowhere unless the report is asked for', () => {
    expect(unmanagedScope(p, UNMANAGED_OFF)).toEqual([]);
  });

  it('looks at the kinds the platform has in the namespaces it declares, by default', () => {
    // `other` has a ConfigMap of the platform but no Namespace object: not managed.
    expect(unmanagedScope(p, on)).toEqual([{ group: '', kind: 'ConfigMap', namespace: 'shop' }]);
  });

  it('looks where and for what the setting names', () => {
    const scope = unmanagedScope(p, {
      ...on,
      namespaces: ['other'],
      kinds: [{ group: 'coordination.k8s.io', kind: 'Lease' }],
    });
    expect(scope).toEqual([{ group: 'coordination.k8s.io', kind: 'Lease', namespace: 'other' }]);
  });
});

describe('findUnmanaged', () => {
  it('lists a hand-made object in a managed namespace, and not what git declares', () => {
    expect(names(on, configMap('shop', 'wanted', {}), configMap('shop', 'handmade', {}))).toEqual([
      'handmade',
    ]);
  });

  it('lists nothing outside the scope: another namespace, another kind', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'shop' } };
    expect(names(on, configMap('elsewhere', 'x', {}), secret)).toEqual([]);
  });

  it('never lists what Kubernetes, controllers or another inventory made', () => {
    const made = [
      configMap('shop', 'kube-root-ca.crt', {}),
      configMap('shop', 'openshift-service-ca.crt', {}),
      {
        ...configMap('shop', 'owned', {}),
        metadata: { name: 'owned', namespace: 'shop', ownerReferences: [{}] },
      },
      annotated('other-inventory', { [OWNER_ANNOTATION]: 'other' }),
      annotated('leader', { 'control-plane.alpha.kubernetes.io/leader': '{}' }),
      annotated('tls', { 'cert-manager.io/certificate-name': 'web' }),
      {
        ...configMap('shop', 'inventory', {}),
        metadata: {
          name: 'inventory',
          namespace: 'shop',
          labels: { 'app.kubernetes.io/managed-by': 'groundwork' },
        },
      },
    ] as K8sObject[];
    expect(names(on, ...made)).toEqual([]);
    const secrets = ['kubernetes.io/service-account-token', 'helm.sh/release.v1', 'kubernetes.io/tls'].map(
      (type, i) => ({
        apiVersion: 'v1',
        kind: 'Secret',
        type,
        metadata: { name: `s${i}`, namespace: 'shop' },
      }),
    );
    const withSecrets: UnmanagedConfig = { ...on, kinds: [{ group: '', kind: 'Secret' }] };
    // Only the TLS Secret nobody annotated is unmanaged.
    expect(names(withSecrets, ...secrets)).toEqual(['s2']);
  });

  it('ignores by kind, namespace and name pattern; a rule must match in every field it names', () => {
    const objects = ['cert-web-tls', 'cert-api-tls', 'cert-api', 'debug'].map((n) =>
      configMap('shop', n, {}),
    );
    const config: UnmanagedConfig = {
      ...on,
      ignore: [
        { kind: 'ConfigMap', name: 'cert-*-tls' },
        { kind: 'Secret', name: 'debug' },
      ],
    };
    expect(names(config, ...objects)).toEqual(['cert-api', 'debug']);
    expect(names({ ...on, ignore: [{ namespace: 'sh*' }] }, ...objects)).toEqual([]);
  });

  it('counts per namespace and kind, and bounds the objects it names', () => {
    const many = Array.from({ length: MAX_UNMANAGED + 5 }, (_, i) =>
      configMap('shop', `cm-${String(i).padStart(5, '0')}`, {}),
    );
    const report = findUnmanaged(p, listed(...many), unmanagedScope(p, on), on);
    expect(report.objects).toHaveLength(MAX_UNMANAGED);
    expect(report.total).toBe(MAX_UNMANAGED + 5);
    expect(report.truncated).toBe(true);
    expect(report.counts).toEqual([{ namespace: 'shop', kind: 'ConfigMap', count: MAX_UNMANAGED + 5 }]);
    expect(report.objects[0]!.ref.name).toBe('cm-00000');
  });

  it('passes on the lists it could not read', () => {
    const unread = [{ kind: 'Secret', namespace: 'shop', reason: 'not listed: forbidden' }];
    expect(findUnmanaged(p, new Map(), unmanagedScope(p, on), on, unread).unread).toEqual(unread);
  });
});

describe('unmanagedDrift', () => {
  const report = (failOn: boolean) =>
    findUnmanaged(p, listed(configMap('shop', 'handmade', {})), unmanagedScope(p, on), { ...on, failOn });

  it('is no drift unless the team asked to fail on them', () => {
    expect(unmanagedDrift(undefined)).toEqual([]);
    expect(unmanagedDrift(report(false))).toEqual([]);
  });

  it('is extra drift with failOn', () => {
    expect(unmanagedDrift(report(true)).map((d) => `${d.type} ${d.ref.name}`)).toEqual(['extra handmade']);
  });
});

function annotated(name: string, annotations: Record<string, string>): K8sObject {
  return { ...configMap('shop', name, {}), metadata: { name, namespace: 'shop', annotations } };
}
