import { describe, expect, it } from 'vitest';
import { updateGroup } from '../../src/propose/group.js';
import { pinsOf } from '../../src/propose/pins.js';

const subscription = (name: string, spec: Record<string, unknown>) => ({
  source: `platform/${name}/Subscription`,
  object: { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', metadata: { name }, spec },
});
const clusterVersion = (version: string, channel: string) => ({
  source: 'platform/version/Resource',
  object: {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: {
      name: 'version',
      annotations: {
        'groundwork.io/target-version': version,
        'groundwork.io/accepted-risks': '["SomeRisk"]',
      },
    },
    spec: { channel },
  },
});

describe('pinsOf', () => {
  it('finds pinned Subscriptions, the version target and remote charts, one pin per value across overlays', () => {
    const pins = pinsOf([
      {
        overlay: 'dev',
        manifests: [
          subscription('kepler', {
            name: 'kepler-operator',
            channel: 'alpha',
            startingCSV: 'kepler-operator.v0.24.0',
          }),
          subscription('cert-manager', { name: 'openshift-cert-manager-operator', channel: 'stable-v1' }),
          clusterVersion('4.16.20', 'stable-4.16'),
        ],
        renders: [
          { engine: 'helm', chart: 'podinfo', repo: 'https://charts.example', version: '6.5.0' },
          { engine: 'helm', chart: 'charts/local' },
          { engine: 'kustomize' },
        ],
      },
      {
        overlay: 'clusters/dev-2',
        manifests: [
          subscription('kepler', {
            name: 'kepler-operator',
            channel: 'alpha',
            startingCSV: 'kepler-operator.v0.24.0',
          }),
        ],
      },
    ]);
    expect(pins).toEqual([
      {
        kind: 'operator',
        subject: 'kepler-operator',
        value: 'kepler-operator.v0.24.0',
        channel: 'alpha',
        construct: 'platform/kepler',
        overlays: ['dev', 'clusters/dev-2'],
      },
      {
        kind: 'cluster-version',
        subject: 'openshift',
        value: '4.16.20',
        channel: 'stable-4.16',
        acceptedRisks: ['SomeRisk'],
        overlays: ['dev'],
      },
      {
        kind: 'chart',
        subject: 'podinfo',
        value: '6.5.0',
        repo: 'https://charts.example',
        overlays: ['dev'],
      },
    ]);
  });
});

describe('updateGroup', () => {
  it('names the branch group by kind and subject, never by version', () => {
    expect(updateGroup('operator', 'kepler-operator')).toBe('operator-kepler-operator');
    expect(updateGroup('cluster-version', 'openshift')).toBe('openshift');
    expect(updateGroup('chart', 'podinfo')).toBe('chart-podinfo');
  });

  it('turns any other subject into a DNS label, with a hash so two subjects never share one', () => {
    const a = updateGroup('chart', 'My_Chart.v2');
    const b = updateGroup('chart', 'my-chart-v2');
    expect(a).toMatch(/^chart-my-chart-v2-[0-9a-f]{8}$/);
    expect(b).toBe('chart-my-chart-v2');
    const long = updateGroup('operator', 'x'.repeat(200));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
  });
});
