import { describe, expect, it } from 'vitest';
import { olmNotServed, type OlmPresence } from '../../src/cluster/olm-served.js';
import type { K8sObject } from '../../src/core/object.js';

const sub: K8sObject = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name: 'openshift-cert-manager-operator', namespace: 'cert-manager-operator' },
};
const cm: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'b' } };
const running: OlmPresence = { crdsServed: true, catalogSources: 2, subscriptions: 0, statusWritten: true };
const noCrds: OlmPresence = { crdsServed: false, catalogSources: 0, subscriptions: 0, statusWritten: false };
const idle: OlmPresence = { crdsServed: true, catalogSources: 1, subscriptions: 3, statusWritten: false };

describe('olmNotServed', () => {
  it('says nothing when the platform has no Subscription, or OLM writes status', () => {
    expect(olmNotServed([{ object: cm }], noCrds)).toBeUndefined();
    expect(olmNotServed([{ object: sub }, { object: cm }], running)).toBeUndefined();
  });

  it('names the Subscription and the fix when the cluster serves no operators.coreos.com API', () => {
    const err = olmNotServed([{ object: cm }, { object: sub }], noCrds);
    expect(err?.code).toBe('OlmNotServed');
    expect(err?.message).toBe(
      'Subscription/cert-manager-operator/openshift-cert-manager-operator: the cluster serves no operators.coreos.com API: OLM is not installed, so no operator would ever be installed',
    );
    expect(err?.fix).toContain('groundwork cluster up --openshift');
  });

  it('says OLM is not running when the CRDs exist but no CatalogSource or Subscription has a status', () => {
    const other = { ...sub, metadata: { ...sub.metadata, name: 'other' } };
    const err = olmNotServed([{ object: sub }, { object: other }], idle);
    expect(err?.subject).toBe(
      'Subscription/cert-manager-operator/openshift-cert-manager-operator and 1 more',
    );
    expect(err?.message).toContain(
      'no status on its 1 CatalogSource(s) or 3 Subscription(s)): OLM is not running',
    );
  });

  it('ignores a Subscription kind of another group', () => {
    expect(olmNotServed([{ object: { ...sub, apiVersion: 'example.com/v1' } }], noCrds)).toBeUndefined();
  });
});
