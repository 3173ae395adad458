import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { accessKey, type AccessAttributes, type ResourceOf } from '../../src/ui/access-attributes.js';
import { driftPage } from '../../src/ui/pages/drift.js';
import { objectPage } from '../../src/ui/pages/object.js';
import { objectsPage } from '../../src/ui/pages/objects.js';
import { openshiftPage } from '../../src/ui/pages/openshift.js';
import { overviewPage } from '../../src/ui/pages/overview.js';
import type { DashboardSnapshot, ObjectDetail, ObjectRow } from '../../src/ui/snapshot.js';
import { detailNeeds, visibleDetail } from '../../src/ui/visible-detail.js';
import { snapshotNeeds, visibleSnapshot } from '../../src/ui/visible-snapshot.js';
import { pageText } from '../harness/page-text.js';
import { hostileSnapshot } from './fixtures.js';

const resources: Record<string, { resource: string; namespaced: boolean }> = {
  '/ConfigMap': { resource: 'configmaps', namespaced: true },
  '/Secret': { resource: 'secrets', namespaced: true },
  '/Namespace': { resource: 'namespaces', namespaced: false },
};
const resourceOf: ResourceOf = (group, kind) => resources[`${group}/${kind}`];

function row(namespace: string, name: string, kind: string, group = ''): ObjectRow {
  return {
    id: `${namespace}_${name}_${group}_${kind}`,
    ref: { group, kind, namespace, name },
    stage: 'resources',
    health: { status: 'Healthy', reason: 'Ready', message: '' },
  };
}

const rows = [
  row('team-a', 'planted-cm-name', 'ConfigMap'),
  row('team-a', 'creds', 'Secret'),
  row('team-b', 'other', 'ConfigMap'),
  row('', 'team-a', 'Namespace'),
  row('team-a', 'widget', 'Gadget', 'example.com'),
];

function snapshot(): DashboardSnapshot {
  const base = hostileSnapshot();
  const co: K8sObject = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name: 'dns' },
  };
  const sub = (ns: string): K8sObject => ({
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name: `sub-${ns}`, namespace: ns },
    spec: { name: 'pkg', channel: 'stable', source: 'cat', sourceNamespace: 'olm' },
  });
  return {
    ...base,
    desiredRevision: 'main@sha1:1',
    syncs: [...base.syncs, { ...base.syncs[0]!, name: 'someone-elses-sync' }],
    objects: rows,
    drift: [
      {
        object: 'ConfigMap/team-a/planted-cm-name',
        id: rows[0]!.id,
        type: 'modified',
        fields: [
          { path: '/data/value', live: '"planted-live"', git: '"planted-git"', managers: ['kubectl-edit'] },
        ],
      },
      { object: 'ConfigMap/team-b/other', id: rows[2]!.id, type: 'modified', fields: [] },
      { object: 'Widget/team-a/not-in-inventory', id: undefined, type: 'missing', fields: [] },
    ],
    openshift: { clusterOperators: [co], subscriptions: [sub('team-a'), sub('team-b')] },
  };
}

/** An answer table: exactly the attributes in `grants` are allowed (the namespace-level ones a reader's Role gives). */
function grants(...allowed: AccessAttributes[]): (a: AccessAttributes) => boolean {
  const keys = new Set(allowed.map(accessKey));
  return (a) => keys.has(accessKey(a));
}
const getCm = (namespace: string): AccessAttributes => ({
  verb: 'get',
  group: '',
  resource: 'configmaps',
  namespace,
});

describe('snapshotNeeds', () => {
  it('asks get per resource and namespace (any resource for an unknown kind), and the OpenShift lists only for that page', () => {
    const needs = snapshotNeeds(snapshot(), resourceOf, { openshift: false }).map(accessKey).sort();
    expect(needs).toEqual(
      [
        'get||namespaces||',
        'get||configmaps|team-a|',
        'get||configmaps|team-b|',
        'get||secrets|team-a|',
        'get|*|*|team-a|',
      ].sort(),
    );
    const withOpenShift = snapshotNeeds(snapshot(), resourceOf, { openshift: true }).map(accessKey);
    expect(withOpenShift).toContain('list|config.openshift.io|clusteroperators||');
    expect(withOpenShift).toContain('list|operators.coreos.com|subscriptions|team-b|');
  });
});

describe('visibleSnapshot', () => {
  it('hides the rows, counts, drift and git values a reader may not get, and counts them without names', () => {
    const s = visibleSnapshot(snapshot(), () => false, resourceOf, { openshift: false });
    expect(s.objects).toEqual([]);
    expect(s.drift).toEqual([]);
    expect(s.hidden).toEqual({ objects: 5, drift: 3, openshift: [], unchecked: 0 });
    expect(s.syncs.map((x) => x.name)).toEqual(['platform-dev']);
    expect(s.selected).toBe(0);
    const pages = [overviewPage(s), objectsPage(s, {}), driftPage(s)].map((p) => p.markup).join('\n');
    for (const leak of [
      'planted-cm-name',
      'planted-live',
      'planted-git',
      'not-in-inventory',
      'team-b',
      'someone-elses-sync',
    ])
      expect(pages).not.toContain(leak);
    expect(pageText(objectsPage(s, {}).markup)).toContain(
      '5 managed object(s) hidden: your Kubernetes RBAC does not let you get them',
    );
    expect(pageText(driftPage(s).markup)).toContain('No drift you may see (3 drifted object(s) hidden)');
    expect(pageText(overviewPage(s).markup)).toMatch(/Healthy 0/);
  });

  it('keeps what the reader may get: ConfigMaps of team-a, not its Secret, nor team-b', () => {
    const s = visibleSnapshot(snapshot(), grants(getCm('team-a')), resourceOf, { openshift: false });
    expect(s.objects.map((r) => r.ref.name)).toEqual(['planted-cm-name']);
    expect(s.drift.map((r) => r.object)).toEqual(['ConfigMap/team-a/planted-cm-name']);
    expect(s.hidden).toMatchObject({ objects: 4, drift: 2 });
    const drift = pageText(driftPage(s).markup);
    expect(drift).toContain('"planted-git"');
    expect(drift).toContain('(2 hidden)');
    expect(pageText(overviewPage(s).markup)).toMatch(/Healthy 1/);
  });

  it('shows an unknown kind and a drift item outside the inventory only to a reader allowed every resource there', () => {
    const all = grants(getCm('team-a'), { verb: 'get', group: '*', resource: '*', namespace: 'team-a' });
    const s = visibleSnapshot(snapshot(), all, resourceOf, { openshift: false });
    expect(s.objects.map((r) => r.ref.name)).toEqual(['planted-cm-name', 'widget']);
    expect(s.drift.map((r) => r.object)).toContain('Widget/team-a/not-in-inventory');
  });

  it('filters the OpenShift lists by namespace and names the hidden kinds', () => {
    const sub = {
      verb: 'list',
      group: 'operators.coreos.com',
      resource: 'subscriptions',
      namespace: 'team-a',
    } as const;
    const s = visibleSnapshot(snapshot(), grants(sub), resourceOf, { openshift: true });
    expect(s.openshift.subscriptions?.map((o) => o.metadata.namespace)).toEqual(['team-a']);
    expect(s.openshift.clusterOperators).toBeUndefined();
    expect(s.hidden?.openshift).toEqual(['ClusterOperator', 'Subscription']);
    expect(pageText(openshiftPage(s).markup)).toContain('Some ClusterOperator, Subscription objects hidden');
    // Not the OpenShift page: none of its objects, whatever the reader may do.
    expect(visibleSnapshot(snapshot(), () => true, resourceOf, { openshift: false }).openshift).toEqual({});
  });

  it('says on the page when permissions could not be checked', () => {
    const s = visibleSnapshot(snapshot(), () => false, resourceOf, { openshift: false, unchecked: 4 });
    expect(pageText(objectsPage(s, {}).markup)).toContain('4 permission check(s) could not be made');
  });
});

describe('visibleDetail', () => {
  const detail: ObjectDetail = {
    row: rows[0]!,
    live: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'planted-cm-name', namespace: 'team-a' },
      data: { value: 'planted-live' },
    },
    events: [
      {
        namespace: 'team-a',
        type: 'Warning',
        reason: 'Planted',
        note: 'planted-event-note',
        count: 1,
        last: '2026-01-01T00:00:00Z',
        source: 'x',
      },
    ],
    desired: {
      revision: 'main@sha1:1',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'planted-cm-name', namespace: 'team-a' },
        data: { value: 'planted-git' },
      },
      diff: [],
    },
  };

  it('needs get on the object (by namespace, then by name) and list events where its Events are', () => {
    expect(detailNeeds(detail, resourceOf).map(accessKey)).toEqual([
      'get||configmaps|team-a|',
      'get||configmaps|team-a|planted-cm-name',
      'list||events|team-a|',
    ]);
  });

  it('shows nothing of an object the reader may not get, neither live nor desired', () => {
    expect(
      visibleDetail(
        detail,
        grants({ verb: 'list', group: '', resource: 'events', namespace: 'team-a' }),
        resourceOf,
      ),
    ).toBeUndefined();
  });

  it('shows the object by name (resourceNames) and hides Events the reader may not list, with their count', () => {
    const d = visibleDetail(detail, grants({ ...getCm('team-a'), name: 'planted-cm-name' }), resourceOf)!;
    expect(d.events).toEqual([]);
    expect(d.hiddenEvents).toBe(1);
    const text = pageText(
      objectPage(
        visibleSnapshot(snapshot(), () => true, resourceOf, { openshift: false }),
        d,
      ).markup,
    );
    expect(text).toContain('planted-git');
    expect(text).not.toContain('planted-event-note');
    expect(text).toContain('1 Event(s) hidden');
    const withEvents = visibleDetail(
      detail,
      grants(getCm('team-a'), { verb: 'list', group: '', resource: 'events', namespace: 'team-a' }),
      resourceOf,
    )!;
    expect(withEvents.events).toHaveLength(1);
    expect(withEvents.hiddenEvents).toBeUndefined();
  });
});
