import { describe, expect, it } from 'vitest';
import {
  clusterVersionHealth,
  completedVersion,
  desiredRelease,
  releaseName,
  updateCompleted,
} from '../../src/health/cluster-version.js';
import { obj } from './helpers.js';

const IMG_1 = 'quay.io/openshift-release-dev/ocp-release@sha256:aaa';
const IMG_2 = 'quay.io/openshift-release-dev/ocp-release@sha256:bbb';

/** A ClusterVersion at generation 2 with the given spec extras and status body. */
const cv = (spec: string, status: string) =>
  obj(`apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version, generation: 2}
spec: {channel: stable-4.14, clusterID: x${spec}}
${status}`);

const conditions = (
  failing: string,
  progressing: string,
  available = 'True',
  accepted = 'True',
) => `  conditions:
  - {type: Available, status: "${available}", message: Done applying 4.14.1}
  - {type: Failing, status: "${failing}", reason: ClusterOperatorDegraded, message: Cluster operator etcd is degraded}
  - {type: Progressing, status: "${progressing}", reason: ClusterOperatorUpdating, message: 'Working towards 4.14.2: 10 of 859 done'}
  - {type: ReleaseAccepted, status: "${accepted}", reason: RetrievePayload, message: signature verification failed}`;

const completed = `status:
  observedGeneration: 2
  desired: {version: 4.14.1, image: '${IMG_1}'}
  history:
  - {state: Completed, version: 4.14.1, image: '${IMG_1}'}
${conditions('False', 'False')}`;

const partial = `status:
  observedGeneration: 2
  desired: {version: 4.14.2, image: '${IMG_2}'}
  history:
  - {state: Partial, version: 4.14.2, image: '${IMG_2}'}
  - {state: Completed, version: 4.14.1, image: '${IMG_1}'}
`;

const cases = [
  { name: 'clusterversion-no-status', spec: '', yaml: '', status: 'Unknown', reason: 'NoStatus' },
  {
    name: 'clusterversion-generation-outdated',
    spec: '',
    yaml: completed.replace('observedGeneration: 2', 'observedGeneration: 1'),
    status: 'Progressing',
    reason: 'ObservedGenerationOutdated',
  },
  {
    name: 'clusterversion-failing',
    spec: '',
    yaml: partial + conditions('True', 'True'),
    status: 'Degraded',
    reason: 'Failing',
  },
  {
    name: 'clusterversion-release-not-accepted',
    spec: `, desiredUpdate: {version: 4.14.2, image: '${IMG_2}'}`,
    yaml: completed.replace(/ReleaseAccepted, status: "True"/, 'ReleaseAccepted, status: "False"'),
    status: 'Degraded',
    reason: 'ReleaseNotAccepted',
  },
  {
    name: 'clusterversion-unavailable',
    spec: '',
    yaml: completed.replace('Available, status: "True"', 'Available, status: "False"'),
    status: 'Degraded',
    reason: 'Unavailable',
  },
  {
    name: 'clusterversion-installing',
    spec: '',
    yaml: partial + conditions('False', 'True', 'False'),
    status: 'Progressing',
    reason: 'Updating',
  },
  {
    name: 'clusterversion-updating',
    spec: '',
    yaml: partial + conditions('False', 'True'),
    status: 'Progressing',
    reason: 'Updating',
  },
  {
    name: 'clusterversion-history-partial',
    spec: '',
    yaml: partial + conditions('False', 'False'),
    status: 'Progressing',
    reason: 'UpdateIncomplete',
  },
  {
    name: 'clusterversion-update-not-started',
    spec: ', desiredUpdate: {version: 4.14.2}',
    yaml: completed,
    status: 'Progressing',
    reason: 'UpdateIncomplete',
  },
  {
    name: 'clusterversion-healthy',
    spec: '',
    yaml: completed,
    status: 'Healthy',
    reason: 'AtDesiredVersion',
  },
  {
    name: 'clusterversion-healthy-desired-update-done',
    spec: `, desiredUpdate: {image: '${IMG_1}'}`,
    yaml: completed,
    status: 'Healthy',
    reason: 'AtDesiredVersion',
  },
] as const;

describe('clusterVersionHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ spec, yaml, status, reason }) => {
    const v = clusterVersionHealth(cv(spec, yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('says which update has not completed', () => {
    expect(clusterVersionHealth(cv('', partial + conditions('False', 'False'))).message).toBe(
      'the update to 4.14.2 is Partial',
    );
    expect(clusterVersionHealth(cv(', desiredUpdate: {version: 4.14.2}', completed)).message).toBe(
      'the update to 4.14.2 is not started',
    );
  });
});

describe('ClusterVersion release helpers', () => {
  it('prefers spec.desiredUpdate over status.desired', () => {
    expect(desiredRelease(cv(', desiredUpdate: {version: 4.14.2}', completed))).toEqual({
      version: '4.14.2',
    });
    expect(desiredRelease(cv(', desiredUpdate: {version: ""}', completed))).toEqual({
      version: '4.14.1',
      image: IMG_1,
    });
    expect(desiredRelease(cv('', ''))).toBeUndefined();
  });

  it('compares images when both sides have one, else versions', () => {
    expect(updateCompleted(cv(`, desiredUpdate: {version: 4.14.1, image: '${IMG_2}'}`, completed))).toBe(
      false,
    );
    expect(updateCompleted(cv(', desiredUpdate: {version: 4.14.1}', completed))).toBe(true);
    expect(updateCompleted(cv('', partial))).toBe(false);
  });

  it('reads the last completed version and names releases', () => {
    expect(completedVersion(cv('', partial))).toBe('4.14.1');
    expect(completedVersion(cv('', ''))).toBeUndefined();
    expect(releaseName({ image: IMG_2 })).toBe(IMG_2);
    expect(releaseName(undefined)).toBe('an unknown release');
  });
});
