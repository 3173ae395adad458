import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import type { ClusterUpdateJson, OperatorPinJson } from '../../src/report/openshift-status.js';
import { openshiftPage } from '../../src/ui/pages/openshift.js';
import type { DashboardSnapshot } from '../../src/ui/snapshot.js';
import { HOSTILE, hostileSnapshot } from './fixtures.js';

// The OpenShift page renders the path and the pins the agent published in the PlatformSync status,
// and falls back to the live ClusterVersion when none is published. Strings are text.

const ESCAPED =
  '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;javascript:alert(3)';

const clusterVersion: K8sObject = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { channel: 'stable-4.16' },
  status: {
    desired: { version: '4.15.3', image: 'img:4.15.3' },
    history: [
      { state: 'Partial', version: '4.15.3', image: 'img:4.15.3' },
      {
        state: 'Completed',
        version: '4.14.10',
        image: 'img:4.14.10',
        completionTime: '2026-01-01T00:00:00Z',
      },
    ],
    conditions: [{ type: 'Progressing', status: 'True', message: 'Working towards 4.15.3' }],
  },
};

const update: ClusterUpdateJson = {
  clusterVersion: 'version',
  current: '4.14.10',
  target: '4.16.2',
  steps: [
    { from: '4.14.1', to: '4.14.10', state: 'done', reason: 'completed 2026-01-01T00:00:00Z' },
    { from: '4.14.10', to: '4.15.3', state: 'running', reason: `waiting (UpdateInProgress): ${HOSTILE}` },
    { from: '4.15.3', to: '4.16.2', state: 'waiting', reason: 'after the step 4.14.10 -> 4.15.3' },
  ],
  next: '4.15.3',
  action: 'wait',
  reason: 'UpdateInProgress',
  message: HOSTILE,
  risks: [
    { name: 'AcceptedRisk', version: '4.16.2', accepted: true },
    { name: HOSTILE, version: '4.16.2', accepted: false },
  ],
};

const sub = (name: string, installed: string): K8sObject => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name, namespace: 'ops' },
  spec: { name, channel: 'stable', installPlanApproval: 'Manual' },
  status: { installedCSV: installed, currentCSV: `${name}.v9.0.0` },
});
const plan = (name: string, csv: string): K8sObject => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'InstallPlan',
  metadata: { name, namespace: 'ops' },
  spec: { approved: false, approval: 'Manual', clusterServiceVersionNames: [csv] },
  status: { phase: 'RequiresApproval' },
});

const pins: OperatorPinJson[] = [
  {
    subscription: 'ops/foo',
    package: 'foo',
    pin: 'foo.v0.2.0',
    installed: 'foo.v0.1.0',
    installPlans: [{ name: 'install-foo', decision: 'wait', reason: 'BeyondPin', message: HOSTILE }],
  },
];

function snapshot(status: {
  clusterUpdate?: ClusterUpdateJson;
  operatorPins?: OperatorPinJson[];
}): DashboardSnapshot {
  const s = hostileSnapshot();
  return {
    ...s,
    syncs: [{ ...s.syncs[0]!, status: { ...s.syncs[0]!.status!, ...status } }],
    openshift: {
      clusterVersion,
      clusterOperators: [],
      subscriptions: [sub('foo', 'foo.v0.1.0'), sub('bar', 'bar.v1.0.0')],
      installPlans: [plan('install-foo', 'foo.v9.0.0'), plan('install-bar', 'bar.v9.0.0')],
    },
  };
}

describe('the OpenShift page with the decisions the agent published', () => {
  const markup = openshiftPage(snapshot({ clusterUpdate: update, operatorPins: pins })).markup;

  it('shows each step done, running or waiting with why, and the next step', () => {
    expect(markup).toMatch(/<li data-version="4.14.10" data-state="done">/);
    expect(markup).toMatch(/<li data-version="4.15.3" data-state="running">/);
    expect(markup).toMatch(/<li data-version="4.16.2" data-state="waiting">/);
    expect(markup).toContain('after the step 4.14.10 -&gt; 4.15.3');
    expect(markup).toContain('data-next="4.15.3"');
  });

  it('shows the risks on the path, accepted or blocking', () => {
    expect(markup).toContain('data-risk="AcceptedRisk" data-accepted="yes"');
    expect(markup).toContain(`data-risk="${ESCAPED}" data-accepted="no"`);
    expect(markup).toContain('not accepted: blocking');
  });

  it('gives a pinned operator its pin and each plan the reason it waits; an unpinned Manual plan is left to the user', () => {
    expect(markup).toContain('data-pin="foo.v0.2.0"');
    expect(markup).toMatch(/data-plan="install-foo" data-decision="wait">\s*install-foo: beyond the pin/);
    expect(markup).toMatch(
      /data-plan="install-bar" data-decision="unmanaged">\s*install-bar: Manual: not pinned by Groundwork, approve it yourself/,
    );
  });

  it('renders every published string as text', () => {
    expect(markup).not.toContain(HOSTILE);
    expect(markup).toContain(ESCAPED);
    expect(markup).not.toMatch(/<img\b/);
  });
});

describe('the OpenShift page without published decisions', () => {
  const s = snapshot({});
  const markup = openshiftPage({ ...s, syncs: [{ ...s.syncs[0]!, status: undefined }] }).markup;

  it('falls back to the live history and, with no status written yet, says nothing of pins or why a plan waits', () => {
    expect(markup).toMatch(/<li data-version="4.15.3" data-state="running">/);
    expect(markup).not.toContain('data-next=');
    expect(markup).not.toContain('not pinned by Groundwork');
    expect(markup).toContain('waiting for approval (Manual)');
  });

  it('with a status that pins nothing, leaves every Manual plan to the user', () => {
    const none = openshiftPage(snapshot({})).markup;
    expect(none).not.toContain('data-next=');
    expect(none).toMatch(
      /data-plan="install-foo" data-decision="unmanaged">\s*install-foo: Manual: not pinned/,
    );
  });

  it('ignores a published path for another ClusterVersion', () => {
    const other = openshiftPage(snapshot({ clusterUpdate: { ...update, clusterVersion: 'other' } })).markup;
    expect(other).not.toContain('data-next=');
  });
});
