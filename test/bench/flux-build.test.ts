import { describe, expect, it } from 'vitest';
import { fluxBuildGoMod } from '../../bench/flux/build.js';

// The replace directives of kustomize-controller v1.7.3's go.mod (github.com/fluxcd/kustomize-controller).
const UPSTREAM = `module github.com/fluxcd/kustomize-controller

go 1.25.0

replace github.com/fluxcd/kustomize-controller/api => ./api

// Replace digest lib to master to gather access to BLAKE3.
replace github.com/opencontainers/go-digest => github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be

require (
	github.com/fluxcd/kustomize-controller/api v1.7.3
)

replace (
	sigs.k8s.io/kustomize/api => sigs.k8s.io/kustomize/api v0.20.1
	sigs.k8s.io/kustomize/kyaml => sigs.k8s.io/kustomize/kyaml v0.20.1
)

replace gopkg.in/yaml.v3 => gopkg.in/yaml.v3 v3.0.1
`;

describe('the throwaway module that builds kustomize-controller', () => {
  it('requires the controller and copies every replace but the ones into its own repository', () => {
    expect(fluxBuildGoMod(UPSTREAM, 'v1.7.3', '1.27.3')).toBe(
      [
        'module groundwork.local/flux-build',
        '',
        'go 1.27.3',
        '',
        'require github.com/fluxcd/kustomize-controller v1.7.3',
        '',
        'replace github.com/opencontainers/go-digest => github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be',
        'replace sigs.k8s.io/kustomize/api => sigs.k8s.io/kustomize/api v0.20.1',
        'replace sigs.k8s.io/kustomize/kyaml => sigs.k8s.io/kustomize/kyaml v0.20.1',
        'replace gopkg.in/yaml.v3 => gopkg.in/yaml.v3 v3.0.1',
        '',
      ].join('\n'),
    );
  });
});
