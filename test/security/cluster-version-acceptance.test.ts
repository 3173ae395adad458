// Hostile pull requests against the ClusterVersion target's new acceptances (issue 32 item 6): the
// repository names `UnknownVersion` and `Downgrade` in `groundwork.io/accepted-risks`, so repository
// content can lift Groundwork's refusals. What it must never do: hide that it did from the reviewer,
// lift a refusal the cluster-version operator makes anyway, or slip an invalid version past the check.
import { describe, expect, it } from 'vitest';
import { loadReleaseSnapshot } from '../../src/cluster-version/release-snapshot.js';
import { checkTarget } from '../../src/cluster-version/target-check.js';
import { buildPreview } from '../../src/report/preview/preview.js';
import { gateFailures } from '../../src/report/preview/gate.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import { clusterVersion, result } from '../report/preview/helpers.js';

const snapshot = await loadReleaseSnapshot();
const accepts = (...names: string[]) => ({ 'groundwork.io/accepted-risks': JSON.stringify(names) });

function preview(base: SynthResult, head: SynthResult) {
  const p = buildPreview({ base: [base], head: [head], snapshot });
  return { p, notes: p.overlays[0]!.risks.map((r) => `${r.severity} ${r.code}`) };
}

describe('acceptances written by a pull request', () => {
  it('accepting UnknownVersion for 4.14.99 is shown to the reviewer and fails --fail-on warning', () => {
    const { p, notes } = preview(
      result('prod', [clusterVersion('4.14.38', 'stable-4.14')]),
      result('prod', [clusterVersion('4.14.99', 'stable-4.14', accepts('UnknownVersion'))]),
    );
    expect(notes).toContain('high ClusterVersionRisksAccepted');
    expect(notes).toContain('medium ClusterVersionUnknown');
    expect(gateFailures(p, 'warning')).not.toEqual([]);
    // Without the acceptance it is a blocker.
    const bare = preview(
      result('prod', [clusterVersion('4.14.38', 'stable-4.14')]),
      result('prod', [clusterVersion('4.14.99', 'stable-4.14')]),
    );
    expect(bare.notes).toContain('blocker ClusterVersionUnknown');
    expect(gateFailures(bare.p, 'blocker')).toEqual(['1 blocker risk note(s)']);
  });

  it('accepting Downgrade does not lift a downgrade the cluster-version operator refuses (another minor)', () => {
    const { p, notes } = preview(
      result('prod', [clusterVersion('4.15.30', 'stable-4.15')]),
      result('prod', [clusterVersion('4.14.38', 'stable-4.15', accepts('Downgrade', 'UnknownVersion'))]),
    );
    expect(notes).toContain('blocker ClusterVersionDowngrade');
    expect(notes).toContain('high ClusterVersionRisksAccepted');
    expect(gateFailures(p, 'blocker')).not.toEqual([]);
  });

  it('an acceptance that is not a JSON list of names accepts nothing', () => {
    for (const raw of ['UnknownVersion', '{"0":"UnknownVersion"}', '[["UnknownVersion"]]', 'null', '']) {
      const { notes } = preview(
        result('prod', [clusterVersion('4.14.38', 'stable-4.14')]),
        result('prod', [clusterVersion('4.14.99', 'stable-4.14', { 'groundwork.io/accepted-risks': raw })]),
      );
      expect(notes, raw).toContain('blocker ClusterVersionUnknown');
    }
  });

  it('a target version dressed up as a real one is unknown; one that is no version is left to the planner', () => {
    // Build metadata or a prerelease of a real version: never matched to a published release.
    for (const to of ['4.14.38+evil', '4.14.38-0']) {
      const findings = checkTarget({ to, acceptedRisks: [], snapshot });
      expect(
        findings.map((f) => f.risk),
        to,
      ).toEqual(['UnknownVersion']);
    }
    // Past semver's 256 characters it is no version: the construct refuses it at synth.
    for (const to of ['.*', '4.14.*', '$(reboot)', '', `4.14.${'9'.repeat(5000)}`])
      expect(checkTarget({ to, acceptedRisks: [], snapshot })).toEqual([]);
    // The preview does not throw on them either (a raw ApiObject can write any annotation).
    const { notes } = preview(
      result('prod', [clusterVersion('4.14.38', 'stable-4.14')]),
      result('prod', [clusterVersion('4.14.*', 'stable-4.14', accepts('UnknownVersion', 'Downgrade'))]),
    );
    expect(notes).not.toContain('blocker ClusterVersionUnknown');
    expect(notes).toContain('high ClusterVersionRisksAccepted');
  });
});
