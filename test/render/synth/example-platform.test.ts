import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listOverlays } from '../../../src/render/synth/overlays.js';
import { POST_SYNTH_CHECKS as checks } from '../../../src/reconcile/domains.js';
import { synthesize } from '../../../src/render/synth/synthesize.js';
import { manifestIndex, renderStream } from '../../../src/render/output/write.js';
import { toJson } from '../../../src/render/synth/canonical.js';
import { expectGolden } from '../../harness/golden.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const golden = (name: string) => fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
const overlays = await listOverlays(`${repo}/overlays`);

describe('the example platform', () => {
  it('has dev, staging, prod and a per-cluster overlay', () => {
    expect(overlays).toEqual(['clusters/prod-eu-1', 'dev', 'prod', 'staging']);
  });

  it.each(overlays)('synthesizes overlay %s to its golden manifests and index', async (overlay) => {
    const result = await synthesize({ dir: repo, overlay, checks });
    const name = overlay.replace('/', '-');
    expectGolden(golden(`${name}.yaml`), renderStream(result, 'yaml'));
    expectGolden(golden(`${name}.index.json`), toJson(manifestIndex(result, 'yaml')));
  });

  it('orders objects by stage, then kind, namespace and name', async () => {
    const { manifests } = await synthesize({ dir: repo, overlay: 'prod', checks });
    const stages = manifests.map((m) => m.stage);
    expect(stages[0]).toBe('namespaces');
    expect(stages.at(-1)).toBe('cluster-version');
    const subs = manifests
      .filter((m) => m.object.kind === 'Subscription')
      .map((m) => m.object.metadata.namespace);
    expect(subs).toEqual([...subs].sort());
  });

  it('gives the pinned operator Manual approval and startingCSV, and shares nothing with other operators', async () => {
    const { manifests, warnings } = await synthesize({ dir: repo, overlay: 'prod', checks });
    const kepler = manifests.find(
      (m) => m.object.kind === 'Subscription' && m.object.metadata.name === 'kepler-operator',
    )!;
    expect(kepler.object.spec).toMatchObject({
      installPlanApproval: 'Manual',
      startingCSV: 'kepler-operator.v0.21.0',
      source: 'community-operators',
    });
    expect(warnings).toEqual([]);
  });

  it('marks the Argo CD instance as an operand of the GitOps operator', async () => {
    const { manifests } = await synthesize({ dir: repo, overlay: 'dev', checks });
    const argocd = manifests.find((m) => m.object.kind === 'ArgoCD')!;
    expect(argocd.stage).toBe('operands');
    expect(argocd.object.metadata.annotations?.['groundwork.io/operator']).toBe(
      'openshift-gitops-operator/openshift-gitops-operator',
    );
  });
});
