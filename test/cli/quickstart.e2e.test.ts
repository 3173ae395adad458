import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));

describe('groundwork quickstart', () => {
  it('runs the whole demo on its own control plane, explains each step and exits cleanly', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'quickstart', '--timeout', '180'], {
      maxBuffer: 1 << 24,
      timeout: 300_000,
    });
    for (const n of [1, 2, 3, 4, 5, 6]) expect(stdout).toContain(`[${n}/6]`);
    expect(stdout).toMatch(/Subscription\/kepler-operator\/kepler-operator\s+Healthy\s+AtLatestKnown/);
    expect(stdout).toMatch(/ArgoCD\/platform-gitops\/platform\s+Healthy/);
    expect(stdout).toMatch(/ClusterVersion history \(newest first\): 4\.16\.20 ← /);
    expect(stdout).toMatch(
      /modified\s+ConfigMap\/platform-gitops\/platform-info\s+\/data\/owner\s+platform-team\s+someone-else\s+kubectl-edit/,
    );
    expect(stdout).toContain('restored the field from git');
  }, 320_000);
});
