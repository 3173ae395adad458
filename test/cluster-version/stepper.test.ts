import { describe, expect, it } from 'vitest';
import { previousVersion, readClusterVersion } from '../../src/cluster-version/cluster-state.js';
import { graphFromClusterVersion } from '../../src/cluster-version/graph.js';
import { type UpdatePath, planUpdatePath } from '../../src/cluster-version/path.js';
import {
  type UpdateAction,
  type UpdateTarget,
  describeUpdateAction,
  nextUpdateAction,
} from '../../src/cluster-version/stepper.js';
import { cincinnati, clusterState } from './fixtures.js';

// Table tests over the real cluster-state dumps (4.14 clusters); each variant is derived in the
// test from a fresh copy of the fixture.

type State = ReturnType<typeof clusterState>;
type Cv = State['clusterVersion'];

const IMAGE = {
  '4.14.2':
    'quay.io/openshift-release-dev/ocp-release@sha256:45a396b169974dcbd8aae481c647bf55bcf9f0f8f6222483d407d7cec450928d',
  '4.14.9':
    'quay.io/openshift-release-dev/ocp-release@sha256:f5eaf0248779a0478cfd83f055d56dc7d755937800a68ad55f6047c503977c44',
  '4.14.11':
    'quay.io/openshift-release-dev/ocp-release@sha256:36783a8b066c96dd6258e818ce51b5a763438adbf56221ea5c4b62ae4f345886',
  // The not-upgrading cluster's 4.14.1 came from a CI mirror; the same digest on quay.io:
  '4.14.1-quay':
    'quay.io/openshift-release-dev/ocp-release@sha256:05ba8e63f8a76e568afe87f182334504a01d47342b6ad5b4c3ff83a2463018bd',
  // 4.14.0 as the paused-worker-pool cluster installed it (history[1]).
  '4.14.0-ci':
    'registry.build05.ci.openshift.org/ci-ln-lyxhrwb/release@sha256:e2c70fca183e380c6121a1c847806f11e839482123277235a8579db472b9ccf2',
} as const;

/** The paused-worker-pool cluster once its 4.14.0 -> 4.14.1 update completed. */
function pausedCompleted(): State {
  const state = clusterState('4.14.1-paused-worker-pool');
  const status = state.clusterVersion.status;
  status.history[0].state = 'Completed';
  status.history[0].completionTime = '2024-02-07T17:10:00Z';
  setCondition(state.clusterVersion, 'Progressing', 'False', 'Cluster version is 4.14.1');
  setCondition(state.clusterVersion, 'Available', 'True', 'Done applying 4.14.1');
  return state;
}

/** ...where the CVO evaluated AROBrokenDNSMasq as applying to 4.14.9: not recommended, not available. */
function pausedCompletedRisky(): State {
  const state = pausedCompleted();
  const status = state.clusterVersion.status;
  status.availableUpdates = status.availableUpdates.filter(
    (u: { version: string }) => u.version !== '4.14.9',
  );
  status.conditionalUpdates[0].conditions[0].status = 'False';
  return state;
}

function setCondition(cv: Cv, type: string, status: string, message: string, reason?: string): void {
  const conditions = cv.status.conditions as { type: string }[];
  const next = {
    type,
    status,
    message,
    lastTransitionTime: '2024-02-07T17:10:00Z',
    ...(reason ? { reason } : {}),
  };
  const i = conditions.findIndex((c) => c.type === type);
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
}

function planOn(
  cv: Cv,
  options: { to: string; from?: string; acceptedRisks?: string[]; previousVersion?: string },
): UpdatePath {
  const parsed = readClusterVersion(cv);
  return planUpdatePath(graphFromClusterVersion(parsed), {
    from: options.from ?? parsed.status!.desired!.version,
    ...options,
  });
}

/** The machine-config ClusterOperator says Upgradeable=False (condition copied from the degraded dump). */
function withMachineConfigNotUpgradeable(state: State): State {
  const degraded = clusterState('4.14.1-degraded').clusterOperators.items.find(
    (co: Cv) => co.metadata.name === 'machine-config',
  );
  const upgradeable = degraded.status.conditions.find((c: { type: string }) => c.type === 'Upgradeable');
  const mco = state.clusterOperators.items.find((co: Cv) => co.metadata.name === 'machine-config');
  mco.status.conditions = [
    ...mco.status.conditions.filter((c: { type: string }) => c.type !== 'Upgradeable'),
    upgradeable,
  ];
  return state;
}

/** not-upgrading (4.14.1) offered a 4.15.0 update in candidate-4.15 (a derived release, fake digest). */
function notUpgradingWith415(): State {
  const state = clusterState('not-upgrading');
  state.clusterVersion.spec.channel = 'candidate-4.15';
  state.clusterVersion.status.availableUpdates = [
    {
      version: '4.15.0',
      image: 'quay.io/openshift-release-dev/ocp-release@sha256:4150',
      channels: ['candidate-4.15'],
    },
  ];
  return state;
}

const pathTo4142 = () => planOn(pausedCompleted().clusterVersion, { to: '4.14.2' });

const ETCD_REASON =
  'EtcdEndpoints_ErrorUpdatingEtcdEndpoints::EtcdMembers_UnhealthyMembers::NodeController_MasterNodesReady';

/**
 * The degraded dump with its Failing=True moved to `since` (as the CVO sets it at once for an
 * operator it began updating more than 40 minutes before), optionally for another `reason` and
 * without one ClusterOperator.
 */
function failingSince(since: string, options: { reason?: string; without?: string } = {}): State {
  const state = clusterState('4.14.1-degraded');
  const failing = state.clusterVersion.status.conditions.find((c: { type: string }) => c.type === 'Failing');
  failing.lastTransitionTime = since;
  if (options.reason) failing.reason = options.reason;
  state.clusterOperators.items = state.clusterOperators.items.filter(
    (co: Cv) => co.metadata.name !== options.without,
  );
  return state;
}

// The CVO's message for a Deployment that is neither available nor progressing (resourcebuilder/apps.go).
const WORKLOAD_MESSAGE =
  'deployment openshift-monitoring/prometheus-operator is not available MinimumReplicasUnavailable ' +
  '(Deployment does not have minimum availability.) or progressing ProgressDeadlineExceeded ' +
  '(ReplicaSet "prometheus-operator-7d9c" has timed out progressing.)';

/** The paused-worker-pool cluster mid-update, Failing since 17:10:00 for a workload, its operators healthy. */
function workloadFailing(): State {
  const state = clusterState('4.14.1-paused-worker-pool');
  setCondition(state.clusterVersion, 'Failing', 'True', WORKLOAD_MESSAGE, 'WorkloadNotAvailable');
  return state;
}

interface Row {
  name: string;
  state: () => State;
  target: UpdateTarget;
  path: () => UpdatePath;
  expected: UpdateAction;
  now?: Date;
}

/** The state with `version` offered in `status.availableUpdates` (as the CVO lists it). */
function offering(state: State, version: string, image: string): State {
  const status = state.clusterVersion.status;
  status.availableUpdates = [
    ...(status.availableUpdates ?? []),
    { version, image, channels: ['candidate-4.14'] },
  ];
  return state;
}

const rows: Row[] = [
  {
    name: 'not-upgrading at its target is done',
    state: () => clusterState('not-upgrading'),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('not-upgrading').clusterVersion, { to: '4.14.1' }),
    expected: { action: 'done', message: 'the cluster runs 4.14.1 and is Available' },
  },
  {
    name: 'not-upgrading is done for the same digest pulled from another registry',
    state: () => clusterState('not-upgrading'),
    target: { version: '4.14.1', image: IMAGE['4.14.1-quay'] },
    path: () => planOn(clusterState('not-upgrading').clusterVersion, { to: '4.14.1' }),
    expected: { action: 'done', message: 'the cluster runs 4.14.1 and is Available' },
  },
  {
    name: 'paused-worker-pool mid-update waits (history[0] Partial, Progressing=True)',
    state: () => clusterState('4.14.1-paused-worker-pool'),
    target: { channel: 'candidate-4.14', version: '4.14.11' },
    path: () => planOn(pausedCompleted().clusterVersion, { to: '4.14.11' }),
    expected: {
      action: 'wait',
      reason: 'UpdateInProgress',
      message: 'Working towards 4.14.1: 139 of 859 done (16% complete), waiting on kube-scheduler',
    },
  },
  // The degraded dump's operators (lastTransitionTimes): control-plane-machine-set Available=False
  // since 16:26:37, etcd Degraded=True since 16:28:16, kube-apiserver, kube-controller-manager and
  // kube-scheduler Degraded=True since 16:28:36; the ClusterVersion Failing=True since 17:26:54.
  // oc fails the update 20 minutes after Available=False and 40 after Degraded=True.
  {
    name: "the degraded update two minutes into Failing is blocked: its operators are past oc's thresholds",
    state: () => clusterState('4.14.1-degraded'),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T17:28:54Z'),
    expected: {
      action: 'blocked',
      reason: 'OperatorsFailing',
      message:
        "update to 4.14.1 is failing: control-plane-machine-set is unavailable (UnavailableReplicas) for 1h2m: past oc's 20m limit; " +
        `etcd is degraded (${ETCD_REASON}) for 1h: past oc's 40m limit; ` +
        "kube-apiserver is degraded (NodeController_MasterNodesReady) for 1h: past oc's 40m limit; " +
        "kube-controller-manager is degraded (NodeController_MasterNodesReady) for 1h: past oc's 40m limit; " +
        "kube-scheduler is degraded (NodeController_MasterNodesReady) for 1h: past oc's 40m limit",
    },
  },
  {
    name: "Failing for degraded operators waits, past the Failing grace, while they are within oc's thresholds, with the time left",
    state: () => failingSince('2023-11-03T16:28:36Z'),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T16:44:36Z'),
    expected: {
      action: 'wait',
      reason: 'UpdateFailingTransient',
      message:
        'update to 4.14.1 is failing: Cluster operators etcd, kube-apiserver are degraded ' +
        "(degraded: etcd, kube-apiserver, kube-controller-manager, kube-scheduler); waiting within oc's thresholds: " +
        'control-plane-machine-set is unavailable (UnavailableReplicas) for 17m59s: failing the update in 2m1s; ' +
        `etcd is degraded (${ETCD_REASON}) for 16m20s: failing the update in 23m40s; ` +
        'kube-apiserver is degraded (NodeController_MasterNodesReady) for 16m: failing the update in 24m; ' +
        'kube-controller-manager is degraded (NodeController_MasterNodesReady) for 16m: failing the update in 24m; ' +
        'kube-scheduler is degraded (NodeController_MasterNodesReady) for 16m: failing the update in 24m',
    },
  },
  {
    name: 'an operator unavailable for more than 20 minutes blocks the update',
    state: () => failingSince('2023-11-03T16:28:36Z'),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T16:46:38Z'),
    expected: {
      action: 'blocked',
      reason: 'OperatorsFailing',
      message:
        "update to 4.14.1 is failing: control-plane-machine-set is unavailable (UnavailableReplicas) for 20m1s: past oc's 20m limit",
    },
  },
  {
    name: 'an operator degraded for exactly 40 minutes waits (oc: past the threshold, not at it)',
    state: () => failingSince('2023-11-03T16:28:36Z', { without: 'control-plane-machine-set' }),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T17:08:16Z'),
    expected: {
      action: 'wait',
      reason: 'UpdateFailingTransient',
      message:
        'update to 4.14.1 is failing: Cluster operators etcd, kube-apiserver are degraded ' +
        "(degraded: etcd, kube-apiserver, kube-controller-manager, kube-scheduler); waiting within oc's thresholds: " +
        `etcd is degraded (${ETCD_REASON}) for 40m: failing the update in 0s; ` +
        'kube-apiserver is degraded (NodeController_MasterNodesReady) for 39m40s: failing the update in 20s; ' +
        'kube-controller-manager is degraded (NodeController_MasterNodesReady) for 39m40s: failing the update in 20s; ' +
        'kube-scheduler is degraded (NodeController_MasterNodesReady) for 39m40s: failing the update in 20s',
    },
  },
  {
    name: 'an operator degraded for 40 minutes and a second blocks the update',
    state: () => failingSince('2023-11-03T16:28:36Z', { without: 'control-plane-machine-set' }),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T17:08:17Z'),
    expected: {
      action: 'blocked',
      reason: 'OperatorsFailing',
      message: `update to 4.14.1 is failing: etcd is degraded (${ETCD_REASON}) for 40m1s: past oc's 40m limit`,
    },
  },
  {
    name: "Failing for several kinds of error (MultipleErrors) keeps the Failing grace, operators within oc's thresholds or not",
    state: () => failingSince('2023-11-03T16:28:36Z', { reason: 'MultipleErrors' }),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(clusterState('4.14.1-degraded').clusterVersion, { to: '4.14.1' }),
    now: new Date('2023-11-03T16:44:36Z'),
    expected: {
      action: 'blocked',
      reason: 'UpdateFailing',
      message:
        'update to 4.14.1 is failing: Cluster operators etcd, kube-apiserver are degraded ' +
        '(degraded: etcd, kube-apiserver, kube-controller-manager, kube-scheduler) (Failing for more than 600s)',
    },
  },
  {
    name: 'Failing no operator explains waits for the Failing grace period, saying how much has passed',
    state: () => workloadFailing(),
    target: { channel: 'candidate-4.14', version: '4.14.1' },
    path: () => planOn(pausedCompleted().clusterVersion, { to: '4.14.1' }),
    now: new Date('2024-02-07T17:12:00Z'),
    expected: {
      action: 'wait',
      reason: 'UpdateFailingTransient',
      message: `update to 4.14.1 is failing: ${WORKLOAD_MESSAGE}; waiting, as Failing is often transient (120s of the 600s grace period)`,
    },
  },
  {
    name: 'a shorter grace period from the target ends that wait sooner',
    state: () => workloadFailing(),
    target: { channel: 'candidate-4.14', version: '4.14.1', failingGraceSeconds: 60 },
    path: () => planOn(pausedCompleted().clusterVersion, { to: '4.14.1' }),
    now: new Date('2024-02-07T17:12:00Z'),
    expected: {
      action: 'blocked',
      reason: 'UpdateFailing',
      message: `update to 4.14.1 is failing: ${WORKLOAD_MESSAGE} (Failing for more than 60s)`,
    },
  },
  {
    name: 'Invalid=True is blocked: the CVO ignores the spec',
    state: () => {
      const state = clusterState('not-upgrading');
      state.clusterVersion.spec.desiredUpdate = { version: '4.14.99' };
      setCondition(
        state.clusterVersion,
        'Invalid',
        'True',
        'The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.14.99": when image is empty the update must be an available update',
        'InvalidClusterVersion',
      );
      return state;
    },
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'blocked',
      reason: 'InvalidClusterVersion',
      message:
        'the CVO ignores the ClusterVersion spec: The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.14.99": when image is empty the update must be an available update',
    },
  },
  {
    name: 'completed 4.14.1 sets the next step from availableUpdates, with its image',
    state: pausedCompleted,
    target: { channel: 'candidate-4.14', version: '4.14.11' },
    path: () => planOn(pausedCompleted().clusterVersion, { to: '4.14.11' }),
    expected: {
      action: 'set-desired-update',
      desiredUpdate: { version: '4.14.11', image: IMAGE['4.14.11'] },
      message: 'step 1/1 4.14.1 -> 4.14.11',
    },
  },
  {
    name: 'a target channel other than spec.channel is blocked',
    state: pausedCompleted,
    target: { channel: 'stable-4.14', version: '4.14.10' },
    path: () => planOn(pausedCompleted().clusterVersion, { to: '4.14.10' }),
    expected: {
      action: 'blocked',
      reason: 'ChannelMismatch',
      message:
        'spec.channel is candidate-4.14, the target wants stable-4.14: the CVO lists updates of spec.channel only',
    },
  },
  {
    name: 'a not-recommended conditional update is set by image once its risk is accepted',
    state: pausedCompletedRisky,
    target: { channel: 'candidate-4.14', version: '4.14.9', acceptedRisks: ['AROBrokenDNSMasq'] },
    path: () =>
      planOn(pausedCompletedRisky().clusterVersion, { to: '4.14.9', acceptedRisks: ['AROBrokenDNSMasq'] }),
    expected: {
      action: 'set-desired-update',
      desiredUpdate: { version: '4.14.9', image: IMAGE['4.14.9'] },
      message: 'step 1/1 4.14.1 -> 4.14.9',
    },
  },
  {
    name: 'a not-recommended conditional update is blocked when the target does not accept the risk',
    state: pausedCompletedRisky,
    target: { channel: 'candidate-4.14', version: '4.14.9' },
    path: () =>
      planOn(pausedCompletedRisky().clusterVersion, { to: '4.14.9', acceptedRisks: ['AROBrokenDNSMasq'] }),
    expected: {
      action: 'blocked',
      reason: 'RiskNotAccepted',
      message: 'step 1/1 4.14.1 -> 4.14.9 is not recommended for this cluster; accept AROBrokenDNSMasq',
    },
  },
  {
    name: 'a refused path blocks with the path reason',
    state: pausedCompletedRisky,
    target: { channel: 'candidate-4.14', version: '4.14.9' },
    path: () => planOn(pausedCompletedRisky().clusterVersion, { to: '4.14.9' }),
    expected: {
      action: 'blocked',
      reason: 'RiskNotAccepted',
      message:
        'no update path: every route from 4.14.1 to 4.14.9 takes a conditional update; accept AROBrokenDNSMasq ' +
        '(https://issues.redhat.com/browse/MCO-958): Adding a new worker node will fail for clusters running on ARO.',
    },
  },
  {
    name: 'a step the repository graph has but the cluster does not offer waits, even with a known image',
    state: () => clusterState('not-upgrading'),
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'wait',
      reason: 'StepNotOffered',
      message:
        "step 1/1 4.14.1 -> 4.14.2 is in the repository's update graph, but the update service offers 4.14.2 to this cluster in neither status.availableUpdates nor status.conditionalUpdates; Groundwork requests only updates the cluster offers",
    },
  },
  {
    name: 'a step not offered because the CVO could not retrieve updates says why (RetrievedUpdates=False)',
    state: () => {
      const state = clusterState('not-upgrading');
      setCondition(
        state.clusterVersion,
        'RetrievedUpdates',
        'False',
        'Unable to retrieve available updates: currently reconciling cluster version 4.14.1 not found in the "candidate-4.14" channel',
        'VersionNotFound',
      );
      return state;
    },
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'wait',
      reason: 'StepNotOffered',
      message:
        'step 1/1 4.14.1 -> 4.14.2 is in the repository\'s update graph, but the CVO could not retrieve updates (VersionNotFound: Unable to retrieve available updates: currently reconciling cluster version 4.14.1 not found in the "candidate-4.14" channel); Groundwork requests only updates the cluster offers',
    },
  },
  {
    name: 'a desiredUpdate the CVO has not taken yet is waited for',
    state: () => {
      const state = clusterState('not-upgrading');
      state.clusterVersion.spec.desiredUpdate = { version: '4.14.2' };
      return state;
    },
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'wait',
      reason: 'DesiredUpdatePending',
      message: 'spec.desiredUpdate asks for 4.14.2; waiting for the CVO to start',
    },
  },
  {
    name: 'a desiredUpdate the CVO refused (ReleaseAccepted=False) is blocked',
    state: () => {
      const state = clusterState('not-upgrading');
      state.clusterVersion.spec.desiredUpdate = { version: '4.14.2', image: IMAGE['4.14.2'] };
      setCondition(
        state.clusterVersion,
        'ReleaseAccepted',
        'False',
        'Preconditions failed for payload loaded version="4.14.2"',
        'PreconditionChecks',
      );
      return state;
    },
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'blocked',
      reason: 'ReleaseNotAccepted',
      message: `the CVO did not accept 4.14.2 (${IMAGE['4.14.2']}): Preconditions failed for payload loaded version="4.14.2"`,
    },
  },
  {
    name: 'an unavailable ClusterOperator makes it wait (degraded ClusterOperators on the idle cluster)',
    state: () => ({
      ...clusterState('not-upgrading'),
      clusterOperators: clusterState('4.14.1-degraded').clusterOperators,
    }),
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'wait',
      reason: 'ClusterNotAvailable',
      message: '4.14.1 completed; ClusterOperators not Available: control-plane-machine-set',
    },
  },
  {
    name: 'an unavailable ClusterVersion makes it wait',
    state: () => {
      const state = clusterState('not-upgrading');
      setCondition(state.clusterVersion, 'Available', 'False', 'not yet');
      return state;
    },
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'wait',
      reason: 'ClusterNotAvailable',
      message: '4.14.1 completed; ClusterVersion is not Available',
    },
  },
  {
    name: 'Upgradeable=False holds a minor step (a wait: it is often transient) and names the ClusterOperator',
    state: () => withMachineConfigNotUpgradeable(notUpgradingWith415()),
    target: { channel: 'candidate-4.15', version: '4.15.0' },
    path: () => planOn(notUpgradingWith415().clusterVersion, { to: '4.15.0' }),
    expected: {
      action: 'wait',
      reason: 'UpgradeableFalse',
      message: 'Upgradeable=False holds the minor step 1/1 4.14.1 -> 4.15.0: machine-config (PoolUpdating)',
    },
  },
  {
    name: 'Upgradeable=False does not block a patch step',
    state: () =>
      offering(withMachineConfigNotUpgradeable(clusterState('not-upgrading')), '4.14.2', IMAGE['4.14.2']),
    target: { channel: 'candidate-4.14', version: '4.14.2' },
    path: pathTo4142,
    expected: {
      action: 'set-desired-update',
      desiredUpdate: { version: '4.14.2', image: IMAGE['4.14.2'] },
      message: 'step 1/1 4.14.1 -> 4.14.2',
    },
  },
  {
    name: 'a rollback to the previous version uses the image from history',
    state: pausedCompleted,
    target: { channel: 'candidate-4.14', version: '4.14.0' },
    path: () => {
      const cv = pausedCompleted().clusterVersion;
      return planOn(cv, { to: '4.14.0', previousVersion: previousVersion(readClusterVersion(cv))!.version });
    },
    expected: {
      action: 'set-desired-update',
      desiredUpdate: { version: '4.14.0', image: IMAGE['4.14.0-ci'] },
      message: 'step 1/1 4.14.1 -> 4.14.0',
    },
  },
  {
    name: 'a cluster that is not on the path is blocked',
    state: () => clusterState('not-upgrading'),
    target: { version: '4.8.54' },
    path: () => planUpdatePath(cincinnati('stable-4.8.json'), { from: '4.7.0', to: '4.8.54' }),
    expected: {
      action: 'blocked',
      reason: 'OffPath',
      message: 'the cluster runs 4.14.1, which is not on the path 4.7.0 -> 4.8.54; re-plan',
    },
  },
  {
    name: 'a path to another version than the target is blocked',
    state: () => clusterState('not-upgrading'),
    target: { channel: 'candidate-4.14', version: '4.14.11' },
    path: pathTo4142,
    expected: {
      action: 'blocked',
      reason: 'OffPath',
      message: 'the path leads to 4.14.2, the target is 4.14.11',
    },
  },
];

describe('nextUpdateAction', () => {
  it.each(rows)('$name', ({ state, target, path, expected, now }) => {
    const { clusterVersion, clusterOperators } = state();
    expect(
      nextUpdateAction({ clusterVersion, clusterOperators, target, path: path(), ...(now ? { now } : {}) }),
    ).toEqual(expected);
  });

  it('walks 4.8.2 -> 4.8.54 -> 4.9.53 one step at a time, waiting for each to complete', () => {
    // Derived from the idle cluster: its history rewritten to the stable-4.9 releases.
    const path = planUpdatePath(cincinnati('stable-4.9.json'), {
      from: '4.8.2',
      to: '4.9.53',
      channel: 'stable-4.9',
    });
    const target: UpdateTarget = { channel: 'stable-4.9', version: '4.9.53' };
    const image = (v: string) => (path.ok ? path.steps.find((s) => s.to === v)!.image! : '');
    const cluster = (history: { version: string; state: string }[], desired?: string) => {
      const { clusterVersion, clusterOperators } = clusterState('not-upgrading');
      clusterVersion.spec.channel = 'stable-4.9';
      clusterVersion.status.history = history.map((h) => ({
        ...h,
        image: h.version === '4.8.2' ? 'quay.io/x@sha256:482' : image(h.version),
      }));
      clusterVersion.status.desired = {
        version: history[0]!.version,
        image: clusterVersion.status.history[0].image,
        channels: [],
      };
      // The update service offers the path's next step from the release being reconciled.
      clusterVersion.status.availableUpdates = path.ok
        ? path.steps
            .filter((s) => s.from === history[0]!.version)
            .map((s) => ({ version: s.to, image: image(s.to), channels: ['stable-4.9'] }))
        : null;
      if (desired) clusterVersion.spec.desiredUpdate = { version: desired, image: image(desired) };
      if (history[0]!.state === 'Partial')
        setCondition(clusterVersion, 'Progressing', 'True', `Working towards ${history[0]!.version}`);
      return nextUpdateAction({ clusterVersion, clusterOperators, target, path });
    };
    const actions = [
      cluster([{ version: '4.8.2', state: 'Completed' }]),
      cluster(
        [
          { version: '4.8.54', state: 'Partial' },
          { version: '4.8.2', state: 'Completed' },
        ],
        '4.8.54',
      ),
      cluster(
        [
          { version: '4.8.54', state: 'Completed' },
          { version: '4.8.2', state: 'Completed' },
        ],
        '4.8.54',
      ),
      cluster(
        [
          { version: '4.9.53', state: 'Partial' },
          { version: '4.8.54', state: 'Completed' },
        ],
        '4.9.53',
      ),
      cluster(
        [
          { version: '4.9.53', state: 'Completed' },
          { version: '4.8.54', state: 'Completed' },
        ],
        '4.9.53',
      ),
    ].map(describeUpdateAction);
    expect(actions).toEqual([
      `set-desired-update 4.8.54 (${image('4.8.54')}): step 1/2 4.8.2 -> 4.8.54`,
      'wait (UpdateInProgress): Working towards 4.8.54',
      `set-desired-update 4.9.53 (${image('4.9.53')}): step 2/2 4.8.54 -> 4.9.53`,
      'wait (UpdateInProgress): Working towards 4.9.53',
      'done: the cluster runs 4.9.53 and is Available',
    ]);
  });

  it('rejects a malformed ClusterVersion with every problem', () => {
    expect(() =>
      nextUpdateAction({
        clusterVersion: { kind: 'ClusterVersion' },
        clusterOperators: [],
        target: { version: '4.14.1' },
        path: pathTo4142(),
      }),
    ).toThrowError(
      'ClusterVersion: 1 problem(s): metadata: Invalid input: expected object, received undefined',
    );
  });
});
