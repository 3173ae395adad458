import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/core/process-alive.js';
import { BIN_PACKAGE_ROOT, groundwork } from '../harness/cli.js';
import { useWorkloadBinaries } from '../harness/workload-binaries.js';

// An instance of its own: `cluster up` here is what a user runs, detached processes and all.
// `cluster up` runs kube-scheduler and KWOK: found or built before the tests, not inside one.
useWorkloadBinaries();
const name = `os-${Math.random().toString(36).slice(2, 8)}`;
afterAll(async () => {
  await groundwork(['cluster', 'down', '--name', name]);
});

interface StatusJson {
  processes: { name: string; pid: number; alive: boolean }[];
  state: { kubeconfig: string };
}

describe('init → cluster up --openshift → apply, in a fresh directory', () => {
  it('refuses at once on a plain cluster, converges with the simulators, and cluster down leaves no process', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gw-openshift-'));
    const init = await groundwork(['init', 'team-platform'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    const dir = join(cwd, 'team-platform');
    // From a git checkout or a build, the scaffold depends on the running package itself (unpublished).
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies['groundwork-gitops']).toBe(`file:${BIN_PACKAGE_ROOT}`);

    const up = await groundwork(['cluster', 'up', '--name', name]);
    expect(up.code, up.stderr).toBe(0);
    const kubeconfig = (await groundwork(['cluster', 'kubeconfig', '--name', name])).stdout.trim();
    const env = { KUBECONFIG: kubeconfig };

    // A plain control plane has the OLM CRDs but no OLM: apply says so instead of waiting 5 minutes.
    const refused = await groundwork(['apply'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'Subscription/cert-manager-operator/openshift-cert-manager-operator: the cluster has the OLM CRDs but nothing acts on them',
    );
    expect(refused.stderr).toContain('groundwork cluster up --openshift');
    expect(refused.stdout).not.toContain('created');
    const plan = await groundwork(['plan'], { cwd: dir, env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'warning: Subscription/cert-manager-operator/openshift-cert-manager-operator',
    );

    // --openshift on the running instance adds the simulators, serving the scaffold's catalogs.
    const openshift = await groundwork(['cluster', 'up', '--name', name, '--openshift', '--dir', dir]);
    expect(openshift.code, openshift.stderr).toBe(0);
    expect(openshift.stderr).toMatch(/simulators running \(pid \d+/);
    expect(openshift.stdout).toContain('was already running');

    const apply = await groundwork(['apply', '--timeout', '2m'], { cwd: dir, env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain(
      'created    Subscription/cert-manager-operator/openshift-cert-manager-operator',
    );
    expect(apply.stdout).toContain('Health: Healthy');
    expect(apply.stdout).toMatch(
      /Subscription\/cert-manager-operator\/openshift-cert-manager-operator\s+Healthy/,
    );

    const status = JSON.parse(
      (await groundwork(['cluster', 'status', '--name', name, '-o', 'json'])).stdout,
    ) as StatusJson;
    expect(status.processes.map((p) => [p.name, p.alive])).toContainEqual(['openshift-simulators', true]);

    const down = await groundwork(['cluster', 'down', '--name', name]);
    expect(down.code, down.stderr).toBe(0);
    const simulators = status.processes.find((p) => p.name === 'openshift-simulators')!;
    expect(down.stdout).toContain(String(simulators.pid));
    expect(status.processes.filter((p) => isAlive(p.pid))).toEqual([]);
  });
});
