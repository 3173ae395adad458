import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/groundwork.js', import.meta.url));

describe('groundwork quickstart', () => {
  it('runs the whole demo on its own control plane, explains each step and exits cleanly', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [bin, 'quickstart', '--timeout', '180'],
      {
        maxBuffer: 1 << 24,
        timeout: 300_000,
      },
    );
    for (const n of [1, 2, 3, 4, 5, 6]) expect(stdout).toContain(`[${n}/6]`);
    expect(stdout).toMatch(/Subscription\/kepler-operator\/kepler-operator\s+Healthy\s+AtLatestKnown/);
    expect(stdout).toMatch(/ArgoCD\/platform-gitops\/platform\s+Healthy/);
    expect(stdout).toMatch(/ClusterVersion history \(newest first\): 4\.16\.20 ← /);
    // Step 3 waits on the agent's PlatformSync status, not on the agent's memory (progress is on stderr).
    expect(stderr).toMatch(
      /converged at main@sha1:[0-9a-f]{40} in [\d.]+ s \(PlatformSync groundwork-system\/example-platform-dev Ready\)/,
    );
    // Step 5 reports the agent's answers as the cluster holds them: its two Events on the object.
    expect(stdout).toContain(
      'Event DriftDetected on the object: "/data/owner is "someone-else", git has "platform-team" (changed by kubectl-edit)"',
    );
    expect(stdout).toMatch(
      /restored \d+ ms after the edit; Event DriftCorrected: "restored \/data\/owner as in git \(main@sha1:/,
    );
    expect(stdout).toContain('restored the field from git');
  }, 320_000);
});
