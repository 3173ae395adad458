import type { ClusterObservation } from '../../src/fleet/gates.js';

/**
 * A staging cluster as `promote` observes it: one PlatformSync of overlay `staging`, Ready and
 * Healthy, that has applied `env/staging@sha1:<commit>`. The promotion tests' starting point.
 */
export function healthyStaging(commit: string): ClusterObservation {
  return {
    cluster: 'staging-1',
    context: 'staging-1',
    syncs: [
      {
        name: 'p-staging',
        namespace: 'groundwork-system',
        overlay: 'staging',
        repository: { url: 'http://git.invalid/p.git', branch: 'env/staging' },
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'ReconciliationSucceeded',
              message: 'ok',
              lastTransitionTime: '2026-11-20T00:00:00Z',
              observedGeneration: 1,
            },
          ],
          lastAppliedRevision: `env/staging@sha1:${commit}`,
          health: { status: 'Healthy', reason: 'AllHealthy' },
        },
      },
    ],
  };
}
