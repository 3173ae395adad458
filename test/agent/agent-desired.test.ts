import { describe, expect, it } from 'vitest';
import type { GoodRevision } from '../../src/agent/agent-state.js';
import { agentDesired } from '../../src/agent/agent-desired.js';
import type { K8sObject } from '../../src/core/object.js';
import type { PlatformData } from '../../src/reconcile/domains.js';
import { toManifest } from '../../src/render/synth/manifest.js';

const PLANTED = 'planted-sops-plaintext-5d1e';

function good(revision: string, value: string): GoodRevision {
  const cm: K8sObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', namespace: 'shop' },
    data: { value },
  } as K8sObject;
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'creds', namespace: 'shop' },
    stringData: { token: PLANTED },
    data: { other: Buffer.from(PLANTED).toString('base64') },
  } as K8sObject;
  return {
    revision,
    synth: {
      platform: 'p',
      overlay: 'dev',
      manifests: [toManifest(cm, 'platform/a'), toManifest(secret, 'platform/creds')],
      hash: 'sha256:x',
      warnings: [],
    },
    data: {} as PlatformData,
  };
}

describe('agentDesired: the last applied revision for the dashboard', () => {
  it('is undefined before the first apply', () => {
    expect(agentDesired(() => undefined)()).toBeUndefined();
  });

  it("redacts each Secret's values (stringData folded into data) before the dashboard sees them, and shares every other object", () => {
    const g = good('main@sha1:1', 'one');
    const view = agentDesired(() => g)()!;
    expect(view.revision).toBe('main@sha1:1');
    const secret = view.get('shop_creds__Secret')!;
    expect(JSON.stringify(secret)).not.toContain(PLANTED);
    expect(JSON.stringify(secret)).not.toContain(Buffer.from(PLANTED).toString('base64'));
    expect(secret).not.toHaveProperty('stringData');
    expect(Object.keys((secret as unknown as { data: object }).data).sort()).toEqual(['other', 'token']);
    // The manifest itself keeps its value: the agent applies it.
    expect(JSON.stringify(g.synth.manifests[1]!.object)).toContain(PLANTED);
    // Not copied: the dashboard reads the agent's own object.
    expect(view.get('shop_a__ConfigMap')).toBe(g.synth.manifests[0]!.object);
    expect(view.get('shop_nothing__ConfigMap')).toBeUndefined();
  });

  it('builds the index once per applied revision, and again when another one is applied', () => {
    let g = good('main@sha1:1', 'one');
    const source = agentDesired(() => g);
    const first = source();
    expect(source()).toBe(first);
    g = good('main@sha1:2', 'two');
    const second = source()!;
    expect(second).not.toBe(first);
    expect(second.revision).toBe('main@sha1:2');
    expect((second.get('shop_a__ConfigMap') as unknown as { data: { value: string } }).data.value).toBe(
      'two',
    );
  });
});
