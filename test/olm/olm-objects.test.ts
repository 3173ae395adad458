import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  isManualApproval,
  OlmObjectInvalidError,
  toInstallPlan,
  toSubscription,
} from '../../src/olm/index.js';
import { readFixture } from './helpers.js';

describe('OLM objects at the edge', () => {
  it('reads real Subscriptions and keeps unknown fields', async () => {
    const sub = toSubscription(
      parse(await readFixture('health/subscription/install_plan_manual_upgrade_pending.yaml')),
    );
    expect(sub.spec).toMatchObject({ name: 'camel-k', channel: 'stable-v2', installPlanApproval: 'Manual' });
    expect(sub.status?.installPlanRef?.name).toBe('install-sm4qt');
    expect(sub.spec['source']).toBe('community-operators');
  });

  it('rejects an InstallPlan without the fields the decision needs, naming it and every problem', () => {
    const bad = { metadata: { name: 'install-x', namespace: 'ops' }, spec: { approval: 'Manual' } };
    expect(() => toInstallPlan(bad)).toThrow(OlmObjectInvalidError);
    try {
      toInstallPlan(bad);
    } catch (e) {
      expect((e as OlmObjectInvalidError).subject).toBe('InstallPlan/ops/install-x');
      expect((e as OlmObjectInvalidError).message).toMatch(
        /spec\.clusterServiceVersionNames: .*; spec\.approved: /,
      );
    }
  });

  it('installPlanApproval: only the exact string Manual is manual', () => {
    expect(isManualApproval('Manual')).toBe(true);
    for (const v of ['manual', 'Automatic', '', undefined, 'MANUAL']) expect(isManualApproval(v)).toBe(false);
  });
});
