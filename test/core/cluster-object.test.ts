import { describe, expect, it } from 'vitest';
import {
  isK8sObject,
  isListItem,
  k8sObjectSchema,
  parseClusterObject,
  subjectOf,
} from '../../src/core/cluster-object.js';
import { definedKind, readDefinedKind } from '../../src/core/crd-kind.js';
import { fixtureObjects } from '../harness/fixtures.js';

/** Real CRDs: the Prometheus operator's bundle (test/fixtures/real-manifests, see its PROVENANCE.md). */
const realCrds = fixtureObjects('real-manifests/prometheus-operator-v0.85.0-bundle.yaml').filter(
  (o) => o.kind === 'CustomResourceDefinition',
);

describe('objects read from the cluster', () => {
  it.each([
    [
      'a namespaced object',
      { metadata: { name: 'argocd', namespace: 'gitops' } },
      'Subscription/gitops/argocd',
    ],
    ['a cluster-scoped object', { metadata: { name: 'worker' } }, 'MachineConfigPool/worker'],
    ['an empty namespace', { metadata: { name: 'worker', namespace: '' } }, 'MachineConfigPool/worker'],
    ['no metadata', { spec: {} }, 'MachineConfigPool/?'],
    ['a name that is not a name', { metadata: { name: 'a b\nc' } }, 'MachineConfigPool/?'],
    ['a name too long to be one', { metadata: { name: 'x'.repeat(254) } }, 'MachineConfigPool/?'],
    ['not an object', 'worker', 'MachineConfigPool/?'],
  ])('subjectOf: %s', (_, obj, subject) => {
    const kind = subject.split('/')[0]!;
    expect(subjectOf(kind, obj)).toBe(subject);
  });

  it.each([
    [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, true, true],
    [{ metadata: { name: 'a', namespace: 'n' } }, false, true],
    [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '' } }, false, false],
    [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 7 } }, false, false],
    [{ apiVersion: 1, kind: 'ConfigMap', metadata: { name: 'a' } }, false, true],
    [{ apiVersion: 'v1', kind: 'ConfigMap' }, false, false],
    [[], false, false],
    [null, false, false],
  ])('isK8sObject/isListItem %j -> %s/%s', (value, whole, item) => {
    expect(isK8sObject(value)).toBe(whole);
    expect(isListItem(value)).toBe(item);
  });

  it('k8sObjectSchema returns the very object the server sent (no copy, key order kept)', () => {
    const obj = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'a', uid: 'u' },
      data: { z: '1', a: '2' },
    };
    const parsed = k8sObjectSchema.parse(obj);
    expect(parsed).toBe(obj);
    expect(Object.keys(parsed)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
  });

  it('parseClusterObject lists every problem, with a fix, and shortens a long list', () => {
    const items = Array.from({ length: 9 }, () => ({ metadata: {} }));
    try {
      parseClusterObject(k8sObjectSchema.array(), items, 'ConfigMapList');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'ClusterObjectInvalid', subject: 'ConfigMapList/?' });
      expect((err as { problems: string[] }).problems).toHaveLength(9);
      expect(String((err as Error).message)).toMatch(/\[4\]: .*\(\+4 more\)$/);
    }
  });

  it.each(realCrds.map((c) => [c.metadata.name, c] as const))(
    'reads the kind the real CRD %s defines',
    (name, crd) => {
      const kind = readDefinedKind(crd);
      const { names } = crd.spec as { names: { plural: string; kind: string } };
      expect(`${names.plural}.${kind.group}`).toBe(name);
      expect(kind.kind).toBe(names.kind);
      expect(definedKind(crd)).toEqual(kind);
    },
  );

  it('a CRD without its kind: undefined when desired, ClusterObjectInvalid naming it when live', () => {
    const crd = structuredClone(realCrds[0]!);
    delete (crd.spec as { names: { kind?: string } }).names.kind;
    expect(definedKind(crd)).toBeUndefined();
    expect(() => readDefinedKind(crd)).toThrow(
      expect.objectContaining({
        code: 'ClusterObjectInvalid',
        subject: `CustomResourceDefinition/${crd.metadata.name}`,
        message: expect.stringContaining('spec.names.kind: '),
      }),
    );
  });
});
