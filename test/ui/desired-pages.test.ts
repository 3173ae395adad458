import { describe, expect, it } from 'vitest';
import { agentDesired } from '../../src/agent/agent-desired.js';
import type { K8sObject } from '../../src/core/object.js';
import type { PlatformData } from '../../src/reconcile/domains.js';
import { toPointer } from '../../src/plan/json-pointer.js';
import { redactSecret } from '../../src/core/redact.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import { desiredDetail } from '../../src/ui/desired-detail.js';
import { driftRows } from '../../src/ui/drift-rows.js';
import { driftPage } from '../../src/ui/pages/drift.js';
import { objectPage } from '../../src/ui/pages/object.js';
import { YAML_LIMIT } from '../../src/ui/pages/yaml-block.js';
import type { DashboardSnapshot, ObjectDetail, ObjectRow } from '../../src/ui/snapshot.js';
import { pageText as text } from '../harness/page-text.js';
import { HOSTILE, hostileSnapshot } from './fixtures.js';

const PLANTED_GIT = 'planted-git-secret-0b9d';
const PLANTED_LIVE = 'planted-live-secret-e47c';
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Every way a planted value could reach a page: as it is, base64, JSON- or HTML-escaped. */
const leaks = (markup: string) =>
  [PLANTED_GIT, PLANTED_LIVE, b64(PLANTED_GIT), b64(PLANTED_LIVE)].filter((v) => markup.includes(v));

const desiredCm = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'shop', annotations: { note: HOSTILE } },
  data: { value: '1', script: HOSTILE },
} as K8sObject;
const desiredSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', namespace: 'shop' },
  stringData: { token: PLANTED_GIT },
} as K8sObject;
const desired = agentDesired(() => ({
  revision: 'main@sha1:abc',
  synth: {
    platform: 'p',
    overlay: 'dev',
    manifests: [toManifest(desiredCm, 'platform/a'), toManifest(desiredSecret, 'platform/creds')],
    hash: 'sha256:x',
    warnings: [],
  },
  data: {} as PlatformData,
}))()!;

const liveCm = {
  ...desiredCm,
  metadata: {
    ...desiredCm.metadata,
    uid: 'u',
    managedFields: [
      {
        manager: 'groundwork',
        operation: 'Apply',
        fieldsV1: { 'f:data': { 'f:script': {} } },
      },
      { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:data': { 'f:value': {} } } },
    ],
  },
  data: { value: 'edited', script: HOSTILE },
} as K8sObject;
const liveSecret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'creds',
    namespace: 'shop',
    managedFields: [
      { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:data': { 'f:token': {} } } },
    ],
  },
  data: { token: b64(PLANTED_LIVE) },
  type: 'Opaque',
} as K8sObject;

function row(id: string, kind: string, name: string): ObjectRow {
  return {
    id,
    ref: { group: '', kind, namespace: 'shop', name },
    stage: 'resources',
    health: { status: 'Healthy', reason: 'Exists', message: '' },
    drift: { type: 'modified', fields: ['/data/value'] },
  };
}

function snapshot(withDesired: boolean): DashboardSnapshot {
  const s = hostileSnapshot();
  const status = s.syncs[0]!.status!;
  const drift = {
    drifted: 2,
    missing: 0,
    modified: 2,
    extra: 0,
    items: [
      { object: 'ConfigMap/shop/a', type: 'modified' as const, fields: ['/data/value'] },
      { object: 'Secret/shop/creds', type: 'modified' as const, fields: ['/data/token'] },
    ],
  };
  const live = (id: string) => (id === 'shop_a__ConfigMap' ? liveCm : liveSecret);
  return {
    ...s,
    problems: [],
    syncs: [{ ...s.syncs[0]!, status: { ...status, drift } }],
    drift: driftRows(
      drift,
      ['shop_a__ConfigMap', 'shop_creds__Secret'],
      live,
      withDesired ? (id) => desired.get(id) : undefined,
    ),
    ...(withDesired ? { desiredRevision: desired.revision } : {}),
  };
}

function detail(id: string, kind: string, name: string, live: K8sObject): ObjectDetail {
  const redacted = redactSecret(live);
  return {
    row: row(id, kind, name),
    live: redacted,
    events: [],
    desired: desiredDetail(desired, id, redacted)!,
  };
}

describe('the object page with the desired object and its diff', () => {
  it("shows the drifted field with git's and the live value and who wrote it, and the desired object as YAML", () => {
    const markup = objectPage(snapshot(true), detail('shop_a__ConfigMap', 'ConfigMap', 'a', liveCm)).markup;
    expect(markup).toContain('<tr data-field="/data/value">');
    const shown = text(markup);
    expect(shown).toContain('1 field(s) differ from git at main@sha1:abc');
    expect(shown).toContain('/data/value "1" "edited" kubectl-edit');
    expect(shown).toContain('Desired object');
    expect(shown).toContain('value: "1"');
    // Hostile annotation and data values, in desired and live: text, never markup.
    expect(markup).not.toContain(HOSTILE);
    expect(markup).not.toMatch(/<script>alert|<img /);
    expect(shown).toContain(HOSTILE);
  });

  it('keeps a hostile field name from git as text, in the row and in its attribute', () => {
    const hostileKey = { ...desiredCm, data: { [HOSTILE]: 'k' } } as K8sObject;
    const d = desiredDetail(
      { revision: 'main@sha1:abc', get: () => hostileKey },
      'shop_a__ConfigMap',
      liveCm,
    )!;
    expect(d.diff.map((f) => f.op)).toEqual(['add']);
    const markup = objectPage(snapshot(true), {
      row: row('shop_a__ConfigMap', 'ConfigMap', 'a'),
      live: liveCm,
      events: [],
      desired: d,
    }).markup;
    expect(markup).not.toContain(HOSTILE);
    expect(markup).not.toMatch(/<script>alert|<img /);
    expect(markup).toContain('<tr data-field="/data/&quot;&gt;&lt;script&gt;');
    expect(text(markup)).toContain(`${toPointer(['data', HOSTILE])} "k" (absent)`);
  });

  it('says when the cluster lacks the object, and when git no longer declares it', () => {
    const r = row('shop_a__ConfigMap', 'ConfigMap', 'a');
    const missing = desiredDetail(desired, 'shop_a__ConfigMap', undefined)!;
    expect(missing.diff).toEqual([]);
    const m = text(
      objectPage(snapshot(true), { row: r, live: undefined, events: [], desired: missing }).markup,
    );
    expect(m).toContain('Missing: git at main@sha1:abc declares it, the cluster does not hold it.');
    expect(m).toContain('Desired object');
    const leaving = desiredDetail(desired, 'shop_gone__ConfigMap', liveCm)!;
    expect(leaving.object).toBeUndefined();
    const l = text(objectPage(snapshot(true), { row: r, live: liveCm, events: [], desired: leaving }).markup);
    expect(l).toContain('Git at main@sha1:abc does not declare it');
    expect(l).toContain('None at main@sha1:abc');
  });

  it('says the fields git sets match when they do', () => {
    const markup = objectPage(
      snapshot(true),
      detail('shop_a__ConfigMap', 'ConfigMap', 'a', desiredCm),
    ).markup;
    expect(text(markup)).toContain('The fields git sets match git at main@sha1:abc');
  });

  it("shows a Secret's difference as two different keyed hashes, never a value (desired after SOPS, or live)", () => {
    const markup = objectPage(
      snapshot(true),
      detail('shop_creds__Secret', 'Secret', 'creds', liveSecret),
    ).markup;
    expect(markup).toContain('<tr data-field="/data/token">');
    const tags = [...new Set(markup.match(/redacted hmac:[0-9a-f]{8}/g))];
    expect(tags.length).toBeGreaterThanOrEqual(2);
    expect(leaks(markup)).toEqual([]);
  });

  it('cuts a 1 MiB ConfigMap with a note instead of putting it all on the page', () => {
    const big = { ...desiredCm, data: { value: 'x'.repeat(1024 * 1024) } } as K8sObject;
    const d: ObjectDetail = {
      row: row('shop_a__ConfigMap', 'ConfigMap', 'a'),
      live: big,
      events: [],
      desired: {
        revision: 'main@sha1:abc',
        object: desiredCm,
        diff: desiredDetail(desired, 'shop_a__ConfigMap', big)!.diff,
      },
    };
    const markup = objectPage(snapshot(true), d).markup;
    expect(markup.length).toBeLessThan(3 * YAML_LIMIT);
    expect(text(markup)).toMatch(
      /Cut after 65,536 of 1,048,\d{3} characters; kubectl get -o yaml shows it whole/,
    );
    // The diff's live value is cut too.
    expect(text(markup)).toMatch(/"x{150,199}…/);
  });

  it('outside the agent, says where the desired object and its diff can be seen', () => {
    const s = snapshot(false);
    const markup = objectPage(s, {
      row: row('shop_a__ConfigMap', 'ConfigMap', 'a'),
      live: liveCm,
      events: [],
    }).markup;
    const shown = text(markup);
    expect(shown).toContain('holds no desired objects');
    expect(shown).toContain('groundwork agent --dashboard');
    expect(shown).toContain(`from a checkout at main@sha1:${HOSTILE}`);
    expect(shown).not.toContain('Desired object');
  });
});

describe("the Drift page with git's values", () => {
  it("gives each drifted field git's value beside the live one; a Secret's as keyed hashes", () => {
    const markup = driftPage(snapshot(true)).markup;
    const cm = markup.match(/<tr data-drift="ConfigMap\/shop\/a">[\s\S]*?<\/tr>/)![0];
    expect(text(cm)).toContain('/data/value "1" "edited" kubectl-edit');
    const secret = markup.match(/<tr data-drift="Secret\/shop\/creds">[\s\S]*?<\/tr>/)![0];
    const tags = text(secret).match(/<redacted hmac:[0-9a-f]{8}>/g) ?? [];
    expect(tags).toHaveLength(2);
    expect(tags[0]).not.toBe(tags[1]);
    expect(leaks(markup)).toEqual([]);
    expect(text(markup)).toContain("Git's values are those of main@sha1:abc");
  });

  it('outside the agent, has no git values and says where they are', () => {
    const markup = driftPage(snapshot(false)).markup;
    expect(text(markup)).toContain("Git's values are shown by the agent's own dashboard");
    expect(text(markup)).not.toContain('"1"');
  });
});
