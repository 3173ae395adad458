import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KubeClient } from '../../src/cluster/client.js';
import { parseBootstrapKubeconfig } from '../../src/hub/bootstrap-kubeconfig.js';
import { HUB_NAMESPACE, HUB_PATHS } from '../../src/hub/hub-names.js';
import { issueBootstrap } from '../../src/hub/hub-token.js';
import { MemberCredentialsStore } from '../../src/hub/member-credentials-store.js';
import { registerMember } from '../../src/hub/member-registration.js';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { BIN, groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';

// `groundwork hub up` as a person runs it: its own control plane (the cached binaries), the hub
// installed, the controller answering a real registration, a second `hub up` of the same name
// refused, and Ctrl-C leaving nothing behind. The run's control plane plays the member's cluster
// (where the member keeps its credentials).

const cluster = useCluster({ namespacePrefix: 'gw-hub-up' });

describe('groundwork hub up', () => {
  it('runs a local hub whose controller registers a member, and stops cleanly on SIGINT', async () => {
    const name = `e2e-${randomBytes(3).toString('hex')}`;
    const child = spawn(process.execPath, [BIN, 'hub', 'up', '--name', name, '--log-level', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('Ctrl-C')) resolve();
        });
        void exited.then((code) => reject(new Error(`hub up exited ${code}: ${stderr}`)));
      });
      const kubeconfig = /kubeconfig: (\S+)/.exec(stdout)?.[1];
      expect(kubeconfig, stdout).toBeDefined();
      expect(stdout).toContain(`groundwork hub token create --kubeconfig ${kubeconfig} --member`);
      expect(stdout).toContain(`groundwork fleet status --hub ${kubeconfig}`);
      expect(stdout).toContain('groundwork agent --hub');

      // The same name again is refused while this one runs, before anything starts.
      const again = await groundwork(['hub', 'up', '--name', name]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`hub "${name}" already runs`);

      // The controller runs: a member registers through the real path and gets its FleetMember.
      const admin = await KubeClient.load({ kubeconfig: kubeconfig! });
      try {
        const issued = await issueBootstrap(admin, {
          namespace: HUB_NAMESPACE,
          member: 'edge-1',
          labels: {},
          environment: 'dev',
          ttlSeconds: 900,
        });
        const state = await registerMember({
          bootstrap: parseBootstrapKubeconfig(issued.kubeconfig, 'bootstrap'),
          store: new MemberCredentialsStore(cluster.client, cluster.namespace),
          state: undefined,
          timeoutMs: 30_000,
        });
        expect(state).toMatchObject({ phase: 'registered', member: 'edge-1', namespace: 'member-edge-1' });
        const fm = readFleetMember(
          await admin.request('GET', HUB_PATHS.fleetMember('edge-1'), { schema: z.unknown() }),
        );
        expect(fm.spec).toMatchObject({ environment: 'dev' });
      } finally {
        admin.close();
      }

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stderr).toContain(`hub "${name}" stopped`);
      expect(existsSync(dirname(kubeconfig!))).toBe(false);
      const server = /control plane at (https:\/\/\S+?),/.exec(stdout)![1]!;
      await expect(fetch(`${server}/readyz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
