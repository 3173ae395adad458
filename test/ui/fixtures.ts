import type { K8sObject } from '../../src/core/object.js';
import type { DashboardSnapshot } from '../../src/ui/snapshot.js';

/** A hostile string: markup, a script, an attribute break-out and a javascript: URL. */
export const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>'javascript:alert(3)`;

/** A Deployment whose annotations, labels and name-like fields carry `HOSTILE`. */
export function hostileDeployment(): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'u1',
      annotations: { note: HOSTILE, 'groundwork.io/stage': HOSTILE },
      managedFields: [{ manager: HOSTILE, operation: 'Update', time: '2026-01-01T00:00:00Z' }],
    },
    spec: { replicas: 2 },
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [{ type: 'Available', status: 'True', reason: HOSTILE, message: HOSTILE }],
    },
  };
}

/** A snapshot with one PlatformSync whose status and spec carry `HOSTILE` where strings go. */
export function hostileSnapshot(): DashboardSnapshot {
  return {
    at: new Date('2026-11-27T00:00:00Z'),
    syncs: [
      {
        name: 'platform-dev',
        namespace: 'groundwork-system',
        spec: {
          repository: { url: `https://example.com/${HOSTILE}`, ref: { branch: HOSTILE } },
          overlay: HOSTILE,
        },
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'DriftDetected',
              message: HOSTILE,
              lastTransitionTime: '2026-11-27T00:00:00Z',
              observedGeneration: 1,
            },
          ],
          lastAppliedRevision: `main@sha1:${HOSTILE}`,
          health: { status: 'Healthy', reason: HOSTILE, message: HOSTILE },
          drift: {
            drifted: 1,
            missing: 0,
            modified: 1,
            extra: 0,
            items: [
              {
                object: 'Deployment/shop/web',
                type: 'modified',
                fields: ['/spec/replicas', `/metadata/annotations/${HOSTILE}`],
              },
            ],
          },
          pending: [{ stage: HOSTILE, message: HOSTILE }],
          history: [
            {
              revision: `main@sha1:${HOSTILE}`,
              at: '2026-11-27T00:00:00Z',
              outcome: 'failed',
              reason: HOSTILE,
              counts: { [HOSTILE]: 1 },
              timings: { fetch: 10, synth: 1500 },
            },
          ],
        },
      },
    ],
    selected: 0,
    inventory: { platform: HOSTILE, overlay: 'dev', revision: 'main@sha1:abc' },
    objects: [
      {
        id: 'shop_web_apps_Deployment',
        ref: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
        stage: 'resources',
        health: { status: 'Degraded', reason: HOSTILE, message: HOSTILE },
        drift: { type: 'modified', fields: ['/spec/replicas'] },
      },
    ],
    drift: [
      {
        object: 'Deployment/shop/web',
        id: 'shop_web_apps_Deployment',
        type: 'modified',
        fields: [
          { path: `/metadata/annotations/${HOSTILE}`, live: JSON.stringify(HOSTILE), managers: [HOSTILE] },
        ],
      },
    ],
    openshift: {},
    problems: [HOSTILE],
  };
}
