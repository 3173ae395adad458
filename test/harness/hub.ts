import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { z } from 'zod';
import type { KubeClient } from '../../src/cluster/client.js';
import { hubObjects } from '../../src/hub/hub-objects.js';
import { CONTROLLER_SERVICE_ACCOUNT, HUB_NAMESPACE, LABELS } from '../../src/hub/hub-names.js';
import { BIN, groundwork } from './cli.js';
import { eventually } from './cluster.js';
import { runControlPlane } from './run-control-plane.js';
import { serviceAccountKubeconfig } from './service-account.js';

// The run's control plane as the fleet hub, for the hub e2e tests: installed through the CLI
// (`groundwork hub bootstrap --no-deployment`, as an operator would), its controller `groundwork
// hub run` with its own ServiceAccount's kubeconfig (so hub-rbac.ts is what is exercised), and
// removed again (the lane's control plane runs other files next).

/** Installs the hub's CRDs, namespace and RBAC with `groundwork hub bootstrap --no-deployment`. */
export async function installHubWithCli(): Promise<void> {
  const installed = await groundwork([
    'hub',
    'bootstrap',
    '--no-deployment',
    '--kubeconfig',
    runControlPlane().kubeconfig,
  ]);
  expect(installed, installed.stderr).toMatchObject({ code: 0 });
}

/** `groundwork hub run` with the controller ServiceAccount's rights, once it logged that it started. */
export async function startHubController(admin: KubeClient, echo = false): Promise<ChildProcess> {
  const kubeconfig = await serviceAccountKubeconfig({
    admin,
    adminKubeconfig: runControlPlane().kubeconfig,
    namespace: HUB_NAMESPACE,
    name: CONTROLLER_SERVICE_ACCOUNT,
  });
  const child = spawn(process.execPath, [BIN, 'hub', 'run', '--kubeconfig', kubeconfig], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logged = '';
  child.stderr!.on('data', (d: Buffer) => (logged += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      logged += d.toString();
      if (echo) process.stdout.write(d);
      if (logged.includes('hub controller started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`groundwork hub run exited ${code}: ${logged}`)));
  });
  return child;
}

/** SIGTERM, and wait for the exit (nothing when it already exited). */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Deletes the member namespaces and the hub's cluster-wide objects. */
export async function removeHub(admin: KubeClient): Promise<void> {
  const gone = (path: string) => admin.request('DELETE', path).catch(() => undefined);
  const namespaces = await admin.request('GET', '/api/v1/namespaces', {
    query: { labelSelector: LABELS.member },
    schema: z.object({ items: z.array(z.object({ metadata: z.object({ name: z.string() }) })) }),
  });
  for (const ns of namespaces.items) await gone(`/api/v1/namespaces/${ns.metadata.name}`);
  for (const o of hubObjects({ namespace: HUB_NAMESPACE, image: 'x', deployment: false }).reverse())
    if (!o.metadata.namespace)
      await gone(
        o.kind === 'CustomResourceDefinition'
          ? `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${o.metadata.name}`
          : o.kind === 'Namespace'
            ? `/api/v1/namespaces/${o.metadata.name}`
            : `/apis/rbac.authorization.k8s.io/v1/${o.kind === 'ClusterRole' ? 'clusterroles' : 'clusterrolebindings'}/${o.metadata.name}`,
      );
  // The next file of the lane installs the hub again: a namespace still terminating refuses new
  // content (a ServiceAccount token, a member's objects), and a CRD still terminating takes the
  // newly installed one's objects with it when it goes, so wait until all of them are gone.
  const deleted = [HUB_NAMESPACE, ...namespaces.items.map((ns) => ns.metadata.name)].map(
    (ns) => `/api/v1/namespaces/${ns}`,
  );
  for (const o of hubObjects({ namespace: HUB_NAMESPACE, image: 'x', deployment: false }))
    if (o.kind === 'CustomResourceDefinition')
      deleted.push(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${o.metadata.name}`);
  await eventually(
    async () => {
      for (const path of deleted) {
        const found = await admin.request('GET', path).then(
          () => true,
          () => false,
        );
        if (found) return undefined;
      }
      return true;
    },
    120_000,
    `the hub's namespaces and CRDs deleted (${deleted.join(', ')})`,
  );
}
