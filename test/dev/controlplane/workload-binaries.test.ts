import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import type { BinarySet } from '../../../src/dev/controlplane/binaries.js';
import { resolveWorkloadBinaries } from '../../../src/dev/controlplane/workload-binaries.js';

/** An executable shell script printing `out` (a stand-in binary: only its path and version matter). */
function script(dir: string, name: string, out: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho '${out}'\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A cache with a control-plane build of v1.36.3 (its record) and, optionally, KWOK's cached build. */
function setup(opts: { schedulerCached?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'gw-workload-bins-'));
  const cp = join(root, 'cache', 'controlplane', 'v1.36.3');
  mkdirSync(cp, { recursive: true });
  writeFileSync(join(cp, 'versions.json'), JSON.stringify({ kubernetes: 'v1.36.3' }));
  if (opts.schedulerCached) script(cp, 'kube-scheduler', 'Kubernetes v1.36.3');
  const kwok = script(root, 'kwok', 'kwok version v0.8.0 go1.26.8 (linux/amd64)');
  const controlPlane: BinarySet = {
    kubeApiserver: join(cp, 'kube-apiserver'),
    etcd: join(cp, 'etcd'),
    kubectl: undefined,
    kubeControllerManager: undefined,
    source: 'cache',
  };
  const env = { PATH: '/usr/bin:/bin', GROUNDWORK_CACHE_DIR: join(root, 'cache'), GROUNDWORK_KWOK: kwok };
  return { root, cp, kwok, controlPlane, env };
}

describe('resolveWorkloadBinaries', () => {
  it("takes the scheduler of the apiserver's version from the control plane's cache directory", async () => {
    const { cp, kwok, controlPlane, env } = setup({ schedulerCached: true });
    expect(await resolveWorkloadBinaries(controlPlane, { env, build: false })).toEqual({
      kubeScheduler: join(cp, 'kube-scheduler'),
      kwok,
    });
  });

  it('prefers TEST_ASSET_KUBE_SCHEDULER, then KUBEBUILDER_ASSETS, as envtest does', async () => {
    const { root, controlPlane, env } = setup({ schedulerCached: true });
    const assets = join(root, 'assets');
    mkdirSync(assets);
    const fromAssets = script(assets, 'kube-scheduler', 'Kubernetes v1.36.3');
    const viaAssets = await resolveWorkloadBinaries(controlPlane, {
      env: { ...env, KUBEBUILDER_ASSETS: assets },
      build: false,
    });
    expect(viaAssets.kubeScheduler).toBe(fromAssets);
    const explicit = script(root, 'my-scheduler', 'Kubernetes v1.36.3');
    const viaVariable = await resolveWorkloadBinaries(controlPlane, {
      env: { ...env, KUBEBUILDER_ASSETS: assets, TEST_ASSET_KUBE_SCHEDULER: explicit },
      build: false,
    });
    expect(viaVariable.kubeScheduler).toBe(explicit);
  });

  it('without a build, a missing scheduler or KWOK is an error that says how to get it', async () => {
    const { controlPlane, env } = setup();
    const noScheduler = await resolveWorkloadBinaries(controlPlane, { env, build: false }).catch(
      (e: unknown) => e,
    );
    expect(hasCode(noScheduler, 'ControlPlaneBinariesMissing')).toBe(true);
    expect(String(noScheduler)).toContain('kube-scheduler v1.36.3');

    const withScheduler = setup({ schedulerCached: true });
    const { GROUNDWORK_KWOK: _, ...withoutKwok } = withScheduler.env;
    const noKwok = await resolveWorkloadBinaries(withScheduler.controlPlane, {
      env: withoutKwok,
      build: false,
    }).catch((e: unknown) => e);
    expect(hasCode(noKwok, 'ToolNotUsable')).toBe(true);
    expect(String((noKwok as { fix?: string }).fix)).toContain('groundwork cluster up');
  });

  it("takes KWOK's cached build (the entry build/kwok-build.ts writes) without building", async () => {
    const { cp, controlPlane, env } = setup({ schedulerCached: true });
    const { GROUNDWORK_KWOK: _, ...withoutKwok } = env;
    const entry = join(cp, '..', '..', 'tools', 'kwok-v0.8.0');
    mkdirSync(entry, { recursive: true });
    const kwok = script(entry, 'kwok', 'kwok version v0.8.0 go1.26.8 (linux/amd64)');
    writeFileSync(
      join(entry, 'tool.json'),
      JSON.stringify({ name: 'kwok', version: 'v0.8.0', go: '1.26.8', builtAt: '2026-11-28T10:27:56Z' }),
    );
    // build: true: a build would take minutes, past the test's limit, so success means the cache was read.
    const found = await resolveWorkloadBinaries(controlPlane, { env: withoutKwok, build: true });
    expect(found).toEqual({ kubeScheduler: join(cp, 'kube-scheduler'), kwok });
  });

  it('a missing TEST_ASSET_KUBE_SCHEDULER is an error, not a fallback', async () => {
    const { root, controlPlane, env } = setup({ schedulerCached: true });
    const err = await resolveWorkloadBinaries(controlPlane, {
      env: { ...env, TEST_ASSET_KUBE_SCHEDULER: join(root, 'nope') },
      build: false,
    }).catch((e: unknown) => e);
    expect(hasCode(err, 'ControlPlaneBinariesMissing')).toBe(true);
  });
});
