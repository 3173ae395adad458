import { describe, expect, it } from 'vitest';
import { idOfRef, type ObjectRef } from '../../src/core/object-id.js';
import type { DriftItem } from '../../src/plan/drift.js';
import { DriftReport } from '../../src/report/drift-report.js';
import { redactText } from '../../src/core/redact.js';
import { nextStatus, SyncStatus, type SyncEvent, type SyncStatusJson } from '../../src/report/sync-status.js';

const REV1 = 'main@sha1:1111111111111111111111111111111111111111';
const REV2 = 'main@sha1:2222222222222222222222222222222222222222';
const t = (s: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, s));
const healthy = { status: 'Healthy', reason: 'AllHealthy', message: 'all 3 healthy' } as const;
const inventory = { objects: 3, byStage: { namespaces: 1, resources: 2 } };

function reconciled(at: Date, extra: Partial<Extract<SyncEvent, { type: 'reconciled' }>> = {}): SyncEvent {
  return {
    type: 'reconciled',
    at,
    generation: 1,
    revision: REV1,
    applied: true,
    inventory,
    health: healthy,
    ...extra,
  };
}

function driftItem(name: string, type: DriftItem['type'], fields: DriftItem['fields'] = []): DriftItem {
  const ref: ObjectRef = { group: '', kind: 'ConfigMap', namespace: 'app', name };
  return { id: idOfRef(ref), ref, type, fields };
}

function conditions(s: SyncStatus): string[] {
  return s.value.conditions.map((c) => `${c.type}=${c.status}/${c.reason}`);
}

describe('nextStatus', () => {
  it('goes from Reconciling to Ready when the applied revision is healthy', () => {
    const working = nextStatus(undefined, {
      type: 'progressing',
      at: t(0),
      generation: 1,
      revision: REV1,
      phase: 'applying',
    });
    expect(conditions(working)).toEqual(['Ready=Unknown/Progressing', 'Reconciling=True/Progressing']);
    expect(working.reconciling).toBe(true);
    expect(working.value.lastAttemptedRevision).toBe(REV1);
    expect(working.value.lastAppliedRevision).toBeUndefined();

    const ready = nextStatus(working, reconciled(t(5)));
    expect(conditions(ready)).toEqual(['Ready=True/ReconciliationSucceeded']);
    expect(ready.ready).toBe(true);
    expect(ready.condition('Ready')).toMatchObject({
      message: `Applied revision: ${REV1}`,
      lastTransitionTime: '2025-01-01T12:00:05Z',
      observedGeneration: 1,
    });
    expect(ready.value).toMatchObject({
      observedGeneration: 1,
      lastAppliedRevision: REV1,
      lastAttemptedRevision: REV1,
      lastReconcileTime: '2025-01-01T12:00:05Z',
      inventory,
      health: healthy,
    });
  });

  it('keeps Ready and its lastTransitionTime on a no-op reconcile, and returns an equal status', () => {
    const ready = nextStatus(undefined, reconciled(t(5)));
    const again = nextStatus(ready, reconciled(t(50)));
    expect(again.equals(ready)).toBe(true);
    expect(again.condition('Ready')?.lastTransitionTime).toBe('2025-01-01T12:00:05Z');
    expect(again.value.lastReconcileTime).toBe('2025-01-01T12:00:05Z');
  });

  it('stalls on SynthFailed with the construct path, keeping the last applied revision', () => {
    const ready = nextStatus(undefined, reconciled(t(5)));
    const failed = nextStatus(ready, {
      type: 'failed',
      at: t(10),
      generation: 1,
      revision: REV2,
      reason: 'SynthFailed',
      constructPath: 'platform/ingress/router',
      message: 'replicas must be at least 1',
    });
    expect(conditions(failed)).toEqual(['Ready=False/SynthFailed', 'Stalled=True/SynthFailed']);
    expect(failed.stalled).toBe(true);
    expect(failed.condition('Stalled')?.message).toBe(
      'construct platform/ingress/router: replicas must be at least 1',
    );
    expect(failed.condition('Ready')?.lastTransitionTime).toBe('2025-01-01T12:00:10Z');
    expect(failed.value.lastAppliedRevision).toBe(REV1);
    expect(failed.value.lastAttemptedRevision).toBe(REV2);
    expect(failed.value.lastReconcileTime).toBe('2025-01-01T12:00:10Z');

    // The same failure again changes nothing (no write, no new transition).
    const same = nextStatus(failed, {
      type: 'failed',
      at: t(40),
      generation: 1,
      revision: REV2,
      reason: 'SynthFailed',
      constructPath: 'platform/ingress/router',
      message: 'replicas must be at least 1',
    });
    expect(same.equals(failed)).toBe(true);
  });

  it('keeps reconciling with retry on a transient failure', () => {
    const s = nextStatus(undefined, {
      type: 'failed',
      at: t(1),
      generation: 2,
      reason: 'ApplyFailed',
      subject: 'Deployment/app/web',
      message: 'connection reset',
      transient: true,
    });
    expect(conditions(s)).toEqual(['Ready=False/ApplyFailed', 'Reconciling=True/ProgressingWithRetry']);
    expect(s.condition('Reconciling')?.message).toBe('Deployment/app/web: connection reset');
    expect(s.value.observedGeneration).toBe(2);
  });

  it.each([
    [
      { health: { status: 'Degraded', reason: 'ProgressDeadlineExceeded' } },
      ['Ready=False/HealthCheckFailed', 'Stalled=True/HealthCheckFailed'],
    ],
    [
      { health: { status: 'Missing', reason: 'NotFound' } },
      ['Ready=False/HealthCheckFailed', 'Stalled=True/HealthCheckFailed'],
    ],
    [
      { health: { status: 'Progressing', reason: 'RolloutInProgress' } },
      ['Ready=False/WaitingForHealth', 'Reconciling=True/WaitingForHealth'],
    ],
    [
      { health: { status: 'Unknown', reason: 'NoStatus' } },
      ['Ready=False/WaitingForHealth', 'Reconciling=True/WaitingForHealth'],
    ],
    [{ health: { status: 'Suspended', reason: 'Paused' } }, ['Ready=False/Suspended']],
    [
      { pending: [{ stage: 'machine-configs', message: 'pool worker waits for its window' }] },
      ['Ready=False/Pending', 'Reconciling=True/Pending'],
    ],
    [{ latestRevision: REV2 }, ['Ready=Unknown/Progressing', 'Reconciling=True/Progressing']],
    [
      { applied: false, drift: new DriftReport('example', 'prod', [driftItem('a', 'missing')]) },
      ['Ready=False/DriftDetected'],
    ],
  ] as [Partial<Extract<SyncEvent, { type: 'reconciled' }>>, string[]][])(
    'derives the conditions of a finished reconcile: %j',
    (extra, want) => {
      expect(conditions(nextStatus(undefined, reconciled(t(1), extra)))).toEqual(want);
    },
  );

  it('turns Ready off and on with drift events, without moving lastReconcileTime', () => {
    const ready = nextStatus(undefined, reconciled(t(5)));
    const items = [
      driftItem('a', 'modified', [{ path: '/data/x', expected: '1', actual: '2', manager: 'kubectl-edit' }]),
    ];
    const drifted = nextStatus(ready, {
      type: 'drift',
      at: t(20),
      drift: new DriftReport('example', 'prod', items),
    });
    expect(conditions(drifted)).toEqual(['Ready=False/DriftDetected']);
    expect(drifted.value.drift).toEqual({
      drifted: 1,
      missing: 0,
      modified: 1,
      extra: 0,
      items: [{ object: 'ConfigMap/app/a', type: 'modified', fields: ['/data/x'] }],
    });
    expect(drifted.value.lastReconcileTime).toBe('2025-01-01T12:00:05Z');

    const healed = nextStatus(drifted, reconciled(t(30)));
    expect(conditions(healed)).toEqual(['Ready=True/ReconciliationSucceeded']);
    expect(healed.value.drift).toBeUndefined();
    expect(healed.condition('Ready')?.lastTransitionTime).toBe('2025-01-01T12:00:30Z');
  });

  it('leaves a stalled status stalled on a drift event', () => {
    const failed = nextStatus(undefined, {
      type: 'failed',
      at: t(1),
      generation: 1,
      reason: 'FetchFailed',
      message: 'repository not found',
    });
    const drifted = nextStatus(failed, {
      type: 'drift',
      at: t(2),
      drift: new DriftReport('example', 'prod', [driftItem('a', 'extra')]),
    });
    expect(conditions(drifted)).toEqual(['Ready=False/FetchFailed', 'Stalled=True/FetchFailed']);
    expect(drifted.value.drift?.extra).toBe(1);
  });

  it('lists the first 20 drifted objects with field paths and never their values', () => {
    const secretRef: ObjectRef = { group: '', kind: 'Secret', namespace: 'app', name: 'db' };
    const items: DriftItem[] = [
      {
        id: idOfRef(secretRef),
        ref: secretRef,
        type: 'modified',
        fields: [{ path: '/data/password', expected: 'aHVudGVyMg==', actual: 'c2VjcmV0' }],
      },
      ...Array.from({ length: 30 }, (_, i) => driftItem(`cm-${String(i).padStart(2, '0')}`, 'missing')),
    ];
    const s = nextStatus(
      undefined,
      reconciled(t(1), { applied: false, drift: new DriftReport('example', 'prod', items) }),
    );
    expect(s.value.drift).toMatchObject({ drifted: 31, missing: 30, modified: 1, extra: 0 });
    expect(s.value.drift?.items).toHaveLength(20);
    expect(s.value.drift?.items[0]).toEqual({
      object: 'Secret/app/db',
      type: 'modified',
      fields: ['/data/password'],
    });
    const text = JSON.stringify(s) + s.toString() + s.toMarkdown();
    expect(text).not.toContain('aHVudGVyMg==');
    expect(text).not.toContain('c2VjcmV0');
  });

  it('redacts secret material in messages', () => {
    const s = nextStatus(undefined, {
      type: 'failed',
      at: t(1),
      generation: 1,
      reason: 'FetchFailed',
      message: 'git clone https://x: authentication failed, token=ghp_abcdefghijklmnop',
    });
    expect(s.condition('Ready')?.message).not.toContain('ghp_abcdefghijklmnop');
    expect(s.condition('Ready')?.message).toMatch(/token=<redacted hmac:[0-9a-f]{8}>/);
  });
});

describe('redactText', () => {
  it.each([
    ['password: hunter2', 'hunter2'],
    ['{"apiToken":"s3cr3t-value"}', 's3cr3t-value'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'eyJhbGciOiJIUzI1NiJ9'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', 'MIIEow'],
    ['{"apiVersion":"v1","kind":"Secret","data":{"tls.key":"LS0tLS1CRUdJTg=="}}', 'LS0tLS1CRUdJTg=='],
    ['apiVersion: v1\nkind: Secret\ndata:\n  user: YWRtaW4=\n  pass: cGFzcw==\n', 'cGFzcw=='],
  ])('hides the value in %j', (text, value) => {
    expect(redactText(text)).not.toContain(value);
  });

  it('leaves ordinary text and object names alone', () => {
    const text =
      'Secret/app/db-token: data.password changed by kubectl-edit; ConfigMap/app/a: data: {"x":"1"}';
    expect(redactText(text)).toBe(text);
  });

  it('keeps JSON quoting around a redacted value', () => {
    expect(redactText('{"apiToken":"s3cr3t-value","x":1}')).toMatch(
      /^\{"apiToken":"<redacted hmac:[0-9a-f]{8}>","x":1\}$/,
    );
  });

  it('does not redact twice', () => {
    const once = redactText('password=hunter2');
    expect(redactText(once)).toBe(once);
  });
});

describe('SyncStatus', () => {
  it('parses what it wrote, ignoring key order', () => {
    const s = nextStatus(
      undefined,
      reconciled(t(5), { pending: [{ stage: 'machine-configs', message: 'window closed' }] }),
    );
    const json = JSON.parse(JSON.stringify(s)) as SyncStatusJson;
    const reordered = Object.fromEntries(Object.entries(json).reverse());
    expect(SyncStatus.parse(reordered).equals(s)).toBe(true);
  });

  it('rejects an invalid status with every problem and its path', () => {
    expect(() =>
      SyncStatus.parse({ conditions: [{ type: 'Ready', status: 'Maybe' }], inventory: { objects: 'many' } }),
    ).toThrow(/conditions\.0\.status.*inventory\.objects|inventory\.objects.*conditions\.0\.status/s);
  });

  it('renders as text and Markdown', () => {
    const failed = nextStatus(nextStatus(undefined, reconciled(t(5))), {
      type: 'failed',
      at: t(10),
      generation: 1,
      revision: REV2,
      reason: 'SynthFailed',
      constructPath: 'platform/ingress',
      message: 'bad | value',
    });
    expect(failed.toString()).toContain('Stalled=True SynthFailed: construct platform/ingress: bad | value');
    expect(failed.toString()).toContain(`revision: applied ${REV1}, attempted ${REV2}`);
    expect(failed.toString()).toContain('inventory: 3 objects (namespaces 1, resources 2)');
    const md = failed.toMarkdown('example-prod');
    expect(md).toContain('### ❌ Stalled: `example-prod`');
    expect(md).toContain(
      '| Stalled | True | SynthFailed | construct platform/ingress: bad \\| value | 2025-01-01T12:00:10Z |',
    );
  });
});
