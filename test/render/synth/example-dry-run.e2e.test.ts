import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../src/reconcile/cluster-session.js';
import { KubeClient } from '../../../src/cluster/client.js';
import { installCrds } from '../../../src/cluster/crds.js';
import { ssaPatch } from '../../../src/cluster/ssa.js';
import { listOverlays } from '../../../src/render/synth/overlays.js';
import { POST_SYNTH_CHECKS } from '../../../src/reconcile/domains.js';
import { synthesize } from '../../../src/render/synth/synthesize.js';
import { installClusterVersion } from '../../../src/dev/simulators/cvo-install.js';
import { REDHAT_PACKAGES } from '../../../src/dev/simulators/world.js';
import { useDedicatedControlPlane } from '../../harness/cluster.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
// Its own control plane: the ClusterVersion `version` exists once per cluster.
const dedicated = useDedicatedControlPlane();

describe('the example platform against the real CRD schemas', () => {
  it('passes a server-side dry-run for every object of every overlay', async () => {
    const client = await KubeClient.load({ kubeconfig: dedicated.kubeconfig });
    const session = new ClusterSession(client);
    // What an OpenShift cluster already has: the installer's ClusterVersion, and the CRDs OLM installs
    // with the operators (the Argo CD operand's), shaped as the OLM simulator installs them.
    await installClusterVersion(client, { version: '4.14.38', channel: 'stable-4.14' });
    const owned = REDHAT_PACKAGES.flatMap((p) => p.csvs.flatMap((c) => c.ownedCRDs ?? []));
    await installCrds(
      client,
      owned.map((c) => ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${c.plural}.${c.group}` },
        spec: {
          group: c.group,
          scope: 'Namespaced',
          names: {
            plural: c.plural,
            kind: c.kind,
            singular: c.kind.toLowerCase(),
            listKind: `${c.kind}List`,
          },
          versions: c.versions.map((v, i) => ({
            name: v,
            served: true,
            storage: i === 0,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          })),
        },
      })),
    );
    const overlays = await listOverlays(`${repo}/overlays`);
    expect(overlays.length).toBe(4);
    const rejected: string[] = [];
    let checked = 0;
    for (const overlay of overlays) {
      const { manifests } = await synthesize({ dir: repo, overlay, checks: POST_SYNTH_CHECKS });
      // Namespaces are created for real (a dry-run in a missing namespace is refused as NotFound).
      for (const m of manifests.filter((x) => x.object.kind === 'Namespace'))
        await ssaPatch(client, session.discovery, m.object, {});
      for (const m of manifests) {
        checked++;
        await ssaPatch(client, session.discovery, m.object, { dryRun: true, force: true }).catch(
          (err: Error) => rejected.push(`${overlay} ${m.id}: ${err.message}`),
        );
      }
    }
    expect(rejected).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(4 * 18);
    client.close();
  });
});
