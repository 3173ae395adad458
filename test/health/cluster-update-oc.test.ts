import { describe, expect, it } from 'vitest';
import { assessClusterUpdate } from '../../src/health/cluster-update.js';
import { scenario } from './helpers.js';

/**
 * The update view on oc's own example dumps (openshift/oc `pkg/cli/admin/upgrade/status/examples/`,
 * see test/fixtures/PROVENANCE.md), against what `oc adm upgrade status` printed for each
 * (`oc-output.txt` next to the dump). `now` is oc's: the dump's latest condition transition.
 */
const subjects = (u: ReturnType<typeof assessClusterUpdate>, reason: string) =>
  u.objects.filter((o) => o.reason === reason).map((o) => o.subject);

describe('an update requested by image (4.16.0-compact: desiredUpdate.version is "")', () => {
  const u = assessClusterUpdate(scenario('4.16.0-compact'));

  it('targets status.desired.version, as oc prints "Target Version: 4.17.0-ec.0"', () => {
    expect([u.target, u.from, u.updating]).toEqual([
      '4.17.0-ec.0',
      '4.16.0-0.nightly-2024-08-01-082745',
      true,
    ]);
  });

  it('sees the 3 operators oc counts as waiting (30 of 33 updated)', () => {
    expect(subjects(u, 'AwaitingUpdate').filter((s) => s.startsWith('ClusterOperator/'))).toHaveLength(3);
    expect(u.verdict.message).toContain('3 of 33 cluster operators not yet at 4.17.0-ec.0');
  });
});

describe("oc's grace before an operator fails the update (4.15.0-ec2-unavailable-mco-20m)", () => {
  const s = scenario('4.15.0-ec2-unavailable-mco-20m');

  it('fails only on machine-config, unavailable for 20m24s (oc: Error); the others are younger', () => {
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason, u.target]).toEqual([
      'Degraded',
      'ClusterOperatorsDegraded',
      '4.15.0-ec.2',
    ]);
    expect(u.verdict.message).toContain('cluster operators machine-config are degraded or unavailable');
    expect(u.verdict.message).not.toContain('etcd');
  });

  it('keeps each operator its own verdict', () => {
    const u = assessClusterUpdate(s);
    const own = (name: string) => u.objects.find((o) => o.subject === `ClusterOperator/${name}`)?.status;
    expect([own('machine-config'), own('etcd'), own('control-plane-machine-set')]).toEqual([
      'Degraded',
      'Degraded',
      'Degraded',
    ]);
  });

  it('warns 14 minutes earlier, with the time left in the message', () => {
    const u = assessClusterUpdate({ ...s, now: new Date(s.now.getTime() - 14 * 60_000) });
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'ClusterOperatorsWarning']);
    expect(u.verdict.message).toContain(
      'cluster operator machine-config is unavailable (MachineConfigControllerFailed) for 6m24s: failing the update in 13m36s',
    );
  });

  it('is only updating 19 minutes earlier, below the 5-minute warning', () => {
    const u = assessClusterUpdate({ ...s, now: new Date(s.now.getTime() - 19 * 60_000) });
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'Updating']);
    expect(u.verdict.message).toContain(
      'machine-config is unavailable (MachineConfigControllerFailed) for 1m24s',
    );
  });
});

describe('a warning, not a failure (ocpbugs-60768, its pools left out)', () => {
  const s = scenario('ocpbugs-60768');

  it('warns on machine-config, degraded for 8m55s, as oc does', () => {
    const u = assessClusterUpdate({ ...s, machineConfigPools: [] });
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'ClusterOperatorsWarning']);
    expect(u.verdict.message).toContain(
      'cluster operator machine-config is degraded (RequiredPoolsFailed) for 8m55s: failing the update in 31m5s',
    );
  });

  it('fails on the degraded master pool, as oc reports the degraded node as an Error', () => {
    const u = assessClusterUpdate(s);
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Degraded', 'MachineConfigPoolsDegraded']);
  });
});

describe('an empty pool (4.15.0-ec2-b02-cos-not-annotated: zbeast has 0 machines)', () => {
  const u = assessClusterUpdate(scenario('4.15.0-ec2-b02-cos-not-annotated'));

  it('shows the pool as empty, as oc prints "zbeast Empty 0 Total", not as updating', () => {
    expect(u.objects.find((o) => o.subject === 'MachineConfigPool/zbeast')).toMatchObject({
      status: 'Healthy',
      reason: 'Empty',
    });
    expect(u.verdict.message).not.toContain('zbeast');
  });

  it('is proceeding: operators degraded for 18s and 1m42s are within the grace (oc: proceeding well)', () => {
    expect([u.verdict.status, u.verdict.reason]).toEqual(['Progressing', 'Updating']);
  });
});
