import { describe, expect, it } from 'vitest';
import { checkPinsAgainstCatalogs } from '../../src/olm/pin-check.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import type { PostSynthContext } from '../../src/render/synth/post-synth-checks.js';
import { TEST_FIXTURES } from '../harness/fixtures.js';

const subscription = (name: string, pkg: string, channel: string, startingCSV: string) =>
  toManifest(
    {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name, namespace: 'ops' },
      spec: { name: pkg, channel, startingCSV, installPlanApproval: 'Manual', source: 'community' },
    },
    `platform/${name}/Subscription`,
  );

const context = (manifests: PostSynthContext['manifests']): PostSynthContext => ({
  app: undefined as never,
  config: {
    name: 'p',
    entry: 'platform.ts',
    overlays: 'overlays',
    defaultOverlay: 'dev',
    catalogs: ['catalogs/registry-testdata-latest.yaml', 'catalogs/dependencies.yaml'],
    graphs: [],
  },
  manifests,
  dir: TEST_FIXTURES,
});

describe('checkPinsAgainstCatalogs: requirements on the way to a pin (real registry testdata)', () => {
  it('warns about a requirement no bundle of the catalog files satisfies, naming the files', async () => {
    const issues = await checkPinsAgainstCatalogs(
      context([subscription('foo', 'foo', 'beta', 'foo.v0.2.0')]),
    );
    expect(issues).toEqual([
      {
        path: 'platform/foo',
        field: 'pin',
        severity: 'warning',
        message:
          'on the way to pin foo.v0.2.0, bundle foo.v0.2.0 requires an operator with package: bar and with version in range: <0.1.0, and no bundle of the catalog files (catalogs/registry-testdata-latest.yaml, catalogs/dependencies.yaml) satisfies it: OLM will not install foo.v0.2.0 unless a catalog of the cluster does',
        fix: 'add the catalog that carries it to groundwork.yaml catalogs, or pin a CSV before foo.v0.2.0',
      },
    ]);
  });

  it('says nothing of a pin whose requirements a catalog file meets (etcd from dependencies.yaml)', async () => {
    const issues = await checkPinsAgainstCatalogs(
      context([subscription('app', 'etcd-app', 'stable', 'etcd-app.v1.1.0')]),
    );
    expect(issues).toEqual([]);
  });
});
