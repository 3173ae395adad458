import { describe, expect, it } from 'vitest';
import { idOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import { HealthReport } from '../../src/report/health-report.js';
import type { Manifest } from '../../src/render/synth/manifest.js';

const cm: K8sObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'platform' },
  data: { a: '1' },
};
const cv: K8sObject = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { channel: 'stable-4.16' },
};
const manifest = (object: K8sObject, stage: Manifest['stage']): Manifest => ({
  id: idOf(object),
  stage,
  object,
  hash: 'sha256:0',
  source: 'platform',
});
const manifests = [manifest(cm, 'resources'), manifest(cv, 'cluster-version')];
const live = new Map([[idOf(cm), cm]]);

describe('HealthReport', () => {
  it('leaves an object the apply skipped by design out of the roll-up, and shows it as skipped', () => {
    const skipped = new Map([[idOf(cv), 'NotCreatedByGroundwork: the installer creates the ClusterVersion']]);
    const report = new HealthReport(manifests, live, { skipped });
    expect(report.overall.status).toBe('Healthy');
    expect(report.unhealthy).toEqual([]);
    const text = report.toString();
    expect(text).not.toContain('Missing');
    expect(text).toMatch(/ClusterVersion\/version +skipped +NotCreatedByGroundwork/);
  });

  it('still calls an object missing from the cluster Missing when the apply did not skip it', () => {
    const report = new HealthReport(manifests, live);
    expect(report.overall.status).toBe('Missing');
    expect(report.unhealthy.map((r) => r.subject)).toEqual(['ClusterVersion/version']);
  });
});
