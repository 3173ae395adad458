import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import type { RiskNote } from '../../../src/report/preview/risk-note.js';
import { clusterVersionRisks } from '../../../src/report/preview/risks/cluster-version.js';
import { machineConfigRisks } from '../../../src/report/preview/risks/machine-config.js';
import { pruneRisks } from '../../../src/report/preview/risks/prune.js';
import { subscriptionRisks } from '../../../src/report/preview/risks/subscription.js';
import { clusterVersion, configMap, machineConfig, namespace, pairs, pool, subscription } from './helpers.js';

type Case = {
  name: string;
  base: K8sObject[];
  head: K8sObject[];
  want: Pick<RiskNote, 'severity' | 'code'>[];
  message?: RegExp;
};
const brief = (notes: RiskNote[]) => notes.map(({ severity, code }) => ({ severity, code }));

function table(fn: (p: ReturnType<typeof pairs>) => RiskNote[], cases: Case[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const notes = fn(pairs(c.base, c.head));
      expect(brief(notes)).toEqual(c.want);
      if (c.message) expect(notes.map((n) => n.message).join('\n')).toMatch(c.message);
    });
  }
}

const cpOnly = { 'groundwork.io/control-plane-only': 'true' };

describe('clusterVersionRisks', () => {
  table(clusterVersionRisks, [
    {
      name: 'unchanged: nothing',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.14.38', 'stable-4.14')],
      want: [],
    },
    {
      name: 'patch update: low',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.14.40', 'stable-4.14')],
      want: [{ severity: 'low', code: 'ClusterVersionPatch' }],
      message: /target 4\.14\.38 → 4\.14\.40 \(patch update\)/,
    },
    {
      name: 'one minor (with the channel that offers it): high, and the channel change',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.15.30', 'stable-4.15')],
      want: [
        { severity: 'high', code: 'ClusterVersionMinor' },
        { severity: 'medium', code: 'ClusterVersionChannel' },
      ],
      message: /update channel stable-4\.14 → stable-4\.15/,
    },
    {
      name: 'two minors: skipped minors are invalid (blocker), naming the skipped minor',
      base: [clusterVersion('4.14.38', 'stable-4.16')],
      head: [clusterVersion('4.16.20', 'stable-4.16')],
      want: [{ severity: 'blocker', code: 'ClusterVersionSkipsMinors' }],
      message: /skips 4\.15: .*target 4\.15 first/,
    },
    {
      name: 'three minors: blocker, every skipped minor named',
      base: [clusterVersion('4.12.1', 'stable-4.15')],
      head: [clusterVersion('4.15.2', 'stable-4.15')],
      want: [{ severity: 'blocker', code: 'ClusterVersionSkipsMinors' }],
      message: /skips 4\.13, 4\.14:/,
    },
    {
      name: 'EUS-to-EUS control-plane-only (even to even+2, eus channel): high, not invalid',
      base: [clusterVersion('4.14.38', 'eus-4.14')],
      head: [clusterVersion('4.16.20', 'eus-4.16', cpOnly)],
      want: [
        { severity: 'high', code: 'ClusterVersionEusToEus' },
        { severity: 'medium', code: 'ClusterVersionChannel' },
      ],
      message: /goes through 4\.15 with the worker pools paused/,
    },
    {
      name: 'even+2 on an eus channel without control-plane-only: skipped minor',
      base: [clusterVersion('4.14.38', 'eus-4.16')],
      head: [clusterVersion('4.16.20', 'eus-4.16')],
      want: [{ severity: 'blocker', code: 'ClusterVersionSkipsMinors' }],
    },
    {
      name: 'control-plane-only from an odd minor: skipped minor',
      base: [clusterVersion('4.13.1', 'eus-4.16')],
      head: [clusterVersion('4.15.2', 'eus-4.16', cpOnly)],
      want: [{ severity: 'blocker', code: 'ClusterVersionSkipsMinors' }],
    },
    {
      name: 'control-plane-only across four minors: skipped minors',
      base: [clusterVersion('4.12.1', 'eus-4.16')],
      head: [clusterVersion('4.16.2', 'eus-4.16', cpOnly)],
      want: [{ severity: 'blocker', code: 'ClusterVersionSkipsMinors' }],
    },
    {
      name: 'downgrade: blocker, the fix names the acceptance',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.14.30', 'stable-4.14')],
      want: [{ severity: 'blocker', code: 'ClusterVersionDowngrade' }],
      message:
        /engine refuses it\. Fix: target 4\.14\.38 or a later release; or, if the rollback is intended, accept it with acceptedRisks: \['Downgrade'\]/,
    },
    {
      name: 'downgrade in the minor, Downgrade accepted: high (a rollback the engine checks at apply)',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.14.30', 'stable-4.14', { 'groundwork.io/accepted-risks': '["Downgrade"]' })],
      want: [
        { severity: 'high', code: 'ClusterVersionDowngrade' },
        { severity: 'high', code: 'ClusterVersionRisksAccepted' },
      ],
      message: /accepted \(Downgrade\): .*previous version in the same minor \(checked at apply\)/,
    },
    {
      name: 'downgrade across minors: a blocker even when accepted (the CVO refuses it)',
      base: [clusterVersion('4.15.2', 'stable-4.15')],
      head: [clusterVersion('4.14.30', 'stable-4.15', { 'groundwork.io/accepted-risks': '["Downgrade"]' })],
      want: [
        { severity: 'blocker', code: 'ClusterVersionDowngrade' },
        { severity: 'high', code: 'ClusterVersionRisksAccepted' },
      ],
      message:
        /in another minor: the cluster-version operator refuses rollbacks that change the major or minor/,
    },
    {
      name: 'major change: blocker',
      base: [clusterVersion('4.18.1', 'stable-4.18')],
      head: [clusterVersion('5.0.0', 'stable-5.0')],
      want: [
        { severity: 'blocker', code: 'ClusterVersionMajor' },
        { severity: 'medium', code: 'ClusterVersionChannel' },
      ],
    },
    {
      name: 'channel only, to candidate: high',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [clusterVersion('4.14.38', 'candidate-4.14')],
      want: [{ severity: 'high', code: 'ClusterVersionChannel' }],
      message: /not supported for production/,
    },
    {
      name: 'newly accepted conditional-update risks: medium, naming only the new ones',
      base: [clusterVersion('4.14.38', 'stable-4.14', { 'groundwork.io/accepted-risks': '["A"]' })],
      head: [clusterVersion('4.14.38', 'stable-4.14', { 'groundwork.io/accepted-risks': '["A","B"]' })],
      want: [{ severity: 'medium', code: 'ClusterVersionRisksAccepted' }],
      message: /risk B:/,
    },
    {
      name: 'a new target: medium',
      base: [],
      head: [clusterVersion('4.14.38', 'stable-4.14')],
      want: [{ severity: 'medium', code: 'ClusterVersionTargetAdded' }],
    },
    {
      name: 'a removed target is left to prune',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [],
      want: [],
    },
  ]);
});

const worker = { 'machineconfiguration.openshift.io/role': 'worker' };
const master = { 'machineconfiguration.openshift.io/role': 'master' };
const infraPool = pool('infra', {
  machineConfigSelector: {
    matchExpressions: [
      { key: 'machineconfiguration.openshift.io/role', operator: 'In', values: ['worker', 'infra'] },
    ],
  },
  nodeSelector: { matchLabels: { 'node-role.kubernetes.io/infra': '' } },
  maxUnavailable: 1,
});

describe('machineConfigRisks', () => {
  table(machineConfigRisks, [
    {
      name: 'a worker config added rolls the built-in worker pool',
      base: [],
      head: [machineConfig('50-chrony', worker)],
      want: [{ severity: 'medium', code: 'MachineConfigPoolRolls' }],
      message:
        /^reboots nodes in pool worker, maxUnavailable 1 \(built-in pool\): MachineConfig\/50-chrony added$/,
    },
    {
      name: 'a master config changed rolls the control plane: high',
      base: [machineConfig('99-master-kargs', master, ['/etc/a'])],
      head: [machineConfig('99-master-kargs', master, ['/etc/b'])],
      want: [{ severity: 'high', code: 'MachineConfigPoolRolls' }],
      message: /pool master.*MachineConfig\/99-master-kargs changed/,
    },
    {
      name: 'a worker config also rolls a custom pool that selects worker configs, one note per pool',
      base: [
        infraPool,
        machineConfig('50-chrony', worker, ['/etc/a']),
        machineConfig('51-motd', worker, ['/etc/a']),
      ],
      head: [
        infraPool,
        machineConfig('50-chrony', worker, ['/etc/b']),
        machineConfig('51-motd', worker, ['/etc/b']),
      ],
      want: [
        { severity: 'medium', code: 'MachineConfigPoolRolls' },
        { severity: 'medium', code: 'MachineConfigPoolRolls' },
      ],
      message:
        /pool infra, maxUnavailable 1: MachineConfig\/50-chrony changed, MachineConfig\/51-motd changed\n.*pool worker/,
    },
    {
      name: 'a removed config rolls the pools that selected it in base',
      base: [machineConfig('50-chrony', worker)],
      head: [],
      want: [{ severity: 'medium', code: 'MachineConfigPoolRolls' }],
      message: /MachineConfig\/50-chrony removed/,
    },
    {
      name: 'relabelled from worker to master: both pools roll',
      base: [machineConfig('50-x', worker)],
      head: [machineConfig('50-x', master)],
      want: [
        { severity: 'high', code: 'MachineConfigPoolRolls' },
        { severity: 'medium', code: 'MachineConfigPoolRolls' },
      ],
    },
    {
      name: 'a config no pool selects: unselected, and nothing rolls',
      base: [],
      head: [machineConfig('50-x', { 'machineconfiguration.openshift.io/role': 'gpu' })],
      want: [{ severity: 'medium', code: 'MachineConfigUnselected' }],
      message: /labels: machineconfiguration.openshift.io\/role=gpu/,
    },
    {
      name: 'a paused pool with windows says so, with head settings',
      base: [
        infraPool,
        machineConfig('60-infra', { 'machineconfiguration.openshift.io/role': 'infra' }, ['/etc/a']),
      ],
      head: [
        pool(
          'infra',
          { ...(infraPool.spec as object), maxUnavailable: 2, paused: true },
          { 'groundwork.io/maintenance-windows': '[{"start":"02:00","duration":"4h"}]' },
        ),
        machineConfig('60-infra', { 'machineconfiguration.openshift.io/role': 'infra' }, ['/etc/b']),
      ],
      want: [{ severity: 'medium', code: 'MachineConfigPoolRolls' }],
      message:
        /maxUnavailable 2: MachineConfig\/60-infra changed; the pool is paused.*; only inside its maintenance windows/,
    },
    {
      name: 'a new pool and a changed nodeSelector roll the pool',
      base: [],
      head: [infraPool],
      want: [{ severity: 'medium', code: 'MachineConfigPoolRolls' }],
      message: /pool infra.*pool added/,
    },
    {
      name: 'pool maxUnavailable only: no roll',
      base: [infraPool],
      head: [pool('infra', { ...(infraPool.spec as object), maxUnavailable: 3 })],
      want: [],
    },
    {
      name: 'nodeSelector change: rolls',
      base: [infraPool],
      head: [
        pool('infra', { ...(infraPool.spec as object), nodeSelector: { matchLabels: { infra: 'yes' } } }),
      ],
      want: [{ severity: 'medium', code: 'MachineConfigPoolRolls' }],
      message: /nodeSelector changed/,
    },
  ]);
});

describe('subscriptionRisks', () => {
  const kepler = (spec: Record<string, unknown>) =>
    subscription('kepler-operator', {
      channel: 'alpha',
      installPlanApproval: 'Manual',
      startingCSV: 'kepler-operator.v0.21.0',
      ...spec,
    });
  table(subscriptionRisks, [
    { name: 'unchanged: nothing', base: [kepler({})], head: [kepler({})], want: [] },
    {
      name: 'a new operator: low',
      base: [],
      head: [kepler({})],
      want: [{ severity: 'low', code: 'SubscriptionAdded' }],
      message: /pinned at kepler-operator.v0.21.0/,
    },
    {
      name: 'channel change: medium',
      base: [kepler({})],
      head: [kepler({ channel: 'stable' })],
      want: [{ severity: 'medium', code: 'SubscriptionChannel' }],
      message: /channel alpha → stable/,
    },
    {
      name: 'approval to Automatic: medium',
      base: [subscription('a', { installPlanApproval: 'Manual' })],
      head: [subscription('a', { installPlanApproval: 'Automatic' })],
      want: [{ severity: 'medium', code: 'SubscriptionApproval' }],
    },
    {
      name: 'approval to Manual: low',
      base: [subscription('a', {})],
      head: [subscription('a', { installPlanApproval: 'Manual' })],
      want: [{ severity: 'low', code: 'SubscriptionApproval' }],
    },
    {
      name: 'a mis-cased approval is Automatic to OLM: no change noted',
      base: [subscription('a', { installPlanApproval: 'automatic' })],
      head: [subscription('a', { installPlanApproval: 'Automatic' })],
      want: [],
    },
    {
      name: 'pin moved forward: medium',
      base: [kepler({})],
      head: [kepler({ startingCSV: 'kepler-operator.v0.22.0' })],
      want: [{ severity: 'medium', code: 'SubscriptionPin' }],
      message: /from kepler-operator.v0.21.0 up to kepler-operator.v0.22.0/,
    },
    {
      name: 'pin moved back: high (OLM never downgrades)',
      base: [kepler({ startingCSV: 'kepler-operator.v0.22.0' })],
      head: [kepler({})],
      want: [{ severity: 'high', code: 'SubscriptionPin' }],
      message: /never downgrades/,
    },
    {
      name: 'pin removed (and approval to Automatic): two notes',
      base: [kepler({})],
      head: [kepler({ startingCSV: undefined, installPlanApproval: 'Automatic' })],
      want: [
        { severity: 'medium', code: 'SubscriptionApproval' },
        { severity: 'medium', code: 'SubscriptionPin' },
      ],
      message: /pin kepler-operator.v0.21.0 removed/,
    },
    {
      name: 'pin added: medium',
      base: [kepler({ startingCSV: undefined })],
      head: [kepler({})],
      want: [{ severity: 'medium', code: 'SubscriptionPin' }],
    },
    {
      name: 'catalog change: medium',
      base: [kepler({})],
      head: [kepler({ source: 'my-catalog' })],
      want: [{ severity: 'medium', code: 'SubscriptionSource' }],
    },
    { name: 'a removed Subscription is left to prune', base: [kepler({})], head: [], want: [] },
  ]);
});

describe('pruneRisks', () => {
  const crd: K8sObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' } },
  };
  table(pruneRisks, [
    {
      name: 'nothing removed: nothing',
      base: [configMap('a', 'ns', {})],
      head: [configMap('a', 'ns', { k: 'v' })],
      want: [],
    },
    {
      name: 'a removed object is pruned: medium',
      base: [configMap('a', 'ns', {})],
      head: [],
      want: [{ severity: 'medium', code: 'ObjectPruned' }],
    },
    {
      name: 'annotated keep: info, not pruned',
      base: [configMap('a', 'ns', {}, { 'groundwork.io/prune': 'keep' })],
      head: [],
      want: [{ severity: 'info', code: 'PruneKept' }],
      message: /stays in the cluster/,
    },
    {
      name: 'a removed CRD: high, naming the custom resources that go with it',
      base: [crd],
      head: [],
      want: [{ severity: 'high', code: 'CrdRemoved' }],
      message: /every example.com\/Widget custom resource/,
    },
    {
      name: 'a kept CRD: info',
      base: [{ ...crd, metadata: { ...crd.metadata, annotations: { 'groundwork.io/prune': 'keep' } } }],
      head: [],
      want: [{ severity: 'info', code: 'PruneKept' }],
    },
    {
      name: 'a pruned namespace: one high note listing what goes with it, even kept objects',
      base: [
        namespace('team'),
        subscription('team', {}),
        configMap('c', 'team', {}, { 'groundwork.io/prune': 'keep' }),
      ],
      head: [],
      want: [{ severity: 'high', code: 'NamespacePruned' }],
      message:
        /also leaving the desired set: .*Subscription\/team\/team.*; ConfigMap\/team\/c is annotated keep but deleted with the namespace/,
    },
    {
      name: 'a kept namespace keeps its removed objects as separate notes',
      base: [namespace('team', { 'groundwork.io/prune': 'keep' }), subscription('team', {})],
      head: [],
      want: [
        { severity: 'info', code: 'PruneKept' },
        { severity: 'medium', code: 'ObjectPruned' },
      ],
      message: /OLM stops updating team/,
    },
    {
      name: 'the ClusterVersion: high',
      base: [clusterVersion('4.14.38', 'stable-4.14')],
      head: [],
      want: [{ severity: 'high', code: 'ObjectPruned' }],
    },
  ]);
});
