import { join } from 'node:path';
import { KubeClient } from '../../cluster/client.js';
import { installCrds } from '../../cluster/crds.js';
import { LocalControlPlane } from '../../dev/controlplane/control-plane.js';
import { defaultCrdDirs, packageRoot } from '../../core/crd-dirs.js';
import { readObjects } from '../../core/yaml-files.js';
import { SimulatedOpenShift } from '../../dev/simulators/world.js';
import { terminalProgress } from '../progress.js';

/** The quick start's cluster: a local control plane made to look like OpenShift. */
export interface DemoCluster {
  controlPlane: LocalControlPlane;
  /** An admin client of the control plane. */
  admin: KubeClient;
  /** How many CRDs were installed. */
  crds: number;
}

/**
 * Starts a local control plane (kube-apiserver, etcd, kube-controller-manager on loopback), installs
 * the CRDs Groundwork knows (OLM, ClusterVersion, MachineConfig, PlatformSync) and starts the
 * OpenShift simulators (OLM with the bundled community catalog, the CVO, the MCO). Each started part
 * is handed to `onStarted` as soon as it runs, so the caller can stop it even when a later part fails.
 */
export async function startDemoCluster(onStarted: (stop: () => Promise<void>) => void): Promise<DemoCluster> {
  const controlPlane = await LocalControlPlane.start({ progress: terminalProgress() });
  onStarted(() => controlPlane.stop());
  const admin = await KubeClient.load({ kubeconfig: controlPlane.info.kubeconfig });
  onStarted(async () => admin.close());
  const crds = await installCrds(
    admin,
    (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat(),
  );
  const world = await SimulatedOpenShift.start({
    kubeconfig: controlPlane.info.kubeconfig,
    communityCatalogs: [join(packageRoot, 'catalogs', 'community-operators')],
    intervalMs: 200,
    updateTicks: 2,
  });
  onStarted(() => world.stop());
  return { controlPlane, admin, crds: crds.length };
}
