import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { EventRecorder, REPORTING_CONTROLLER } from '../../src/cluster/event-recorder.js';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-events' });

interface EventObject extends K8sObject {
  reason: string;
  action: string;
  note: string;
  type: string;
  reportingController: string;
  reportingInstance: string;
  eventTime: string;
  regarding: { kind: string; name: string; namespace?: string; uid?: string; resourceVersion?: string };
  series?: { count: number; lastObservedTime: string };
}

async function configMap(name: string): Promise<K8sObject> {
  return cluster.client.request<K8sObject>('POST', `/api/v1/namespaces/${cluster.namespace}/configmaps`, {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { x: '1' } },
  });
}

async function ourEvents(): Promise<EventObject[]> {
  const list = await cluster.client.request<{ items: EventObject[] }>(
    'GET',
    `/apis/events.k8s.io/v1/namespaces/${cluster.namespace}/events`,
  );
  return list.items.filter((e) => e.reportingController === REPORTING_CONTROLLER);
}

async function client(): Promise<KubeClient> {
  return KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e' });
}

describe('EventRecorder on the real control plane', () => {
  it('records an Event about the drifted object and folds repeats into a series', async () => {
    const c = await client();
    const cm = await configMap('drifty');
    const events = new EventRecorder(c, { reportingInstance: 'agent-0' });
    const drift = {
      regarding: cm,
      type: 'Warning' as const,
      reason: 'DriftDetected',
      action: 'Detect',
      note: 'data.x changed by kubectl-edit',
    };

    const first = await events.record(drift);
    expect(first.count).toBe(1);
    expect((await events.record(drift)).count).toBe(2); // written at once, as client-go does
    expect((await events.record(drift)).count).toBe(3); // coalesced until the next flush
    await events.close();

    const list = await ourEvents();
    expect(list).toHaveLength(1);
    const e = list[0]!;
    expect(e.metadata.name).toBe(first.name);
    expect(e).toMatchObject({
      type: 'Warning',
      reason: 'DriftDetected',
      action: 'Detect',
      note: 'data.x changed by kubectl-edit',
      reportingController: 'groundwork.io/agent',
      reportingInstance: 'agent-0',
      regarding: {
        kind: 'ConfigMap',
        name: 'drifty',
        namespace: cluster.namespace,
        uid: cm.metadata.uid,
        resourceVersion: cm.metadata.resourceVersion,
      },
      series: { count: 3 },
    });
    expect(e.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(c.counts.POST).toBe(1);
    expect(c.counts.PATCH).toBe(2);
    c.close();
  });

  it('starts a new Event for a different note, and after the series window', async () => {
    const c = await client();
    const cm = await configMap('windowed');
    let now = new Date();
    const events = new EventRecorder(c, {
      reportingInstance: 'agent-0',
      seriesWindowMs: 60_000,
      now: () => now,
    });
    const base = { regarding: cm, reason: 'Healed', action: 'Apply', note: 'data.x reset to git' };
    await events.record(base);
    await events.record({ ...base, note: 'data.y reset to git' });
    now = new Date(now.getTime() + 61_000);
    const late = await events.record(base);
    expect(late.count).toBe(1);
    await events.close();
    const list = await ourEvents();
    expect(list).toHaveLength(3);
    expect(list.every((e) => e.series === undefined && e.type === 'Normal')).toBe(true);
    c.close();
  });

  it('never stores secret values in notes and accepts an object that does not exist', async () => {
    const c = await client();
    const events = new EventRecorder(c, { reportingInstance: 'agent-0' });
    await events.record({
      regarding: { group: '', kind: 'Secret', namespace: cluster.namespace, name: 'db' },
      type: 'Warning',
      reason: 'ApplyFailed',
      action: 'Apply',
      note: `Secret/${cluster.namespace}/db rejected: {"kind":"Secret","data":{"password":"aHVudGVyMg=="}} token=abc123`,
    });
    const [e] = await ourEvents();
    expect(e?.regarding).toEqual({ kind: 'Secret', name: 'db', namespace: cluster.namespace });
    expect(e?.note).not.toContain('aHVudGVyMg==');
    expect(e?.note).not.toContain('abc123');
    expect(e?.note).toMatch(/"password":"<redacted hmac:[0-9a-f]{8}>"/);
    await events.close();
    c.close();
  });

  it('cuts notes to the 1 kB the API allows', async () => {
    const c = await client();
    const cm = await configMap('long');
    const events = new EventRecorder(c, { reportingInstance: 'agent-0' });
    await events.record({ regarding: cm, reason: 'DriftDetected', action: 'Detect', note: 'é'.repeat(2000) });
    const [e] = await ourEvents();
    expect(Buffer.byteLength(e!.note)).toBeLessThanOrEqual(1024);
    expect(e!.note.endsWith('…')).toBe(true);
    await events.close();
    c.close();
  });
});
