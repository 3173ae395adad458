import { describe, expect, it } from 'vitest';
import { kubernetesBuildGoMod, stagingModules } from '../../../src/dev/controlplane/build/gomod.js';

// The shape of k8s.io/kubernetes's go.mod: staging modules required at v0.0.0, real pseudo-versions beside them.
const RELEASE_GO_MOD = `module k8s.io/kubernetes

go 1.26.0

require (
\tk8s.io/api v0.0.0
\tk8s.io/client-go v0.0.0 // indirect
\tk8s.io/kube-openapi v0.0.0-20260317180543-43fb72c5454a
)

replace (
\tk8s.io/api => ./staging/src/k8s.io/api
)
`;

describe('kubernetesBuildGoMod', () => {
  it('requires the release and the modules built beside it, and replaces staging modules by their twins', () => {
    const mod = kubernetesBuildGoMod({
      version: 'v1.36.3',
      goVersion: '1.26.8',
      staging: stagingModules(RELEASE_GO_MOD),
      also: ['sigs.k8s.io/kwok v0.8.0'],
    });
    expect(stagingModules(RELEASE_GO_MOD)).toEqual(['k8s.io/api', 'k8s.io/client-go']);
    expect(mod).toContain('go 1.26.8\n');
    expect(mod).toContain('require k8s.io/kubernetes v1.36.3\n');
    expect(mod).toContain('require sigs.k8s.io/kwok v0.8.0\n');
    expect(mod).toContain('\tk8s.io/api => k8s.io/api v0.36.3\n');
    expect(mod).toContain('\tk8s.io/client-go => k8s.io/client-go v0.36.3\n');
    expect(mod).not.toContain('kube-openapi');
  });

  it('requires only the release when nothing is built beside it', () => {
    const mod = kubernetesBuildGoMod({ version: 'v1.35.2', goVersion: '1.26.8', staging: ['k8s.io/api'] });
    expect(mod.match(/^require /gm)).toHaveLength(1);
    expect(mod).toContain('\tk8s.io/api => k8s.io/api v0.35.2\n');
  });
});
