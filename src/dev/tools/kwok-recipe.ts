import type { ToolRecipe } from '../../tools/recipes.js';

/**
 * KWOK (sigs.k8s.io/kwok), the Kubernetes project's simulator of nodes and pods: the local control
 * plane's stand-in for kubelets (`src/dev/controlplane/workloads.ts`). Machinery of `cluster up`,
 * the quick start and tests, not a tool the product runs, so `groundwork tools list|build` leaves it
 * out; `resolveTool(KWOK_RECIPE)` finds it like the product's tools. The first time a cluster needs
 * running pods it is built in the control plane's Kubernetes module (`build/kwok-build.ts`), or, for
 * a control plane of the user's, by `resolveTool` in a module of its own. v0.8.0 is the newest
 * release the Go module proxy serves (checked 2026-11-27); its stage format is what `kwok-stages/`
 * holds, so only 0.8.x fits.
 */
export const KWOK_RECIPE: ToolRecipe = {
  name: 'kwok',
  module: 'sigs.k8s.io/kwok',
  version: 'v0.8.0',
  pkg: 'sigs.k8s.io/kwok/cmd/kwok',
  envVar: 'GROUNDWORK_KWOK',
  ldflags: ['-X sigs.k8s.io/kwok/pkg/consts.Version=v0.8.0'],
  versionArgs: ['--version'],
  fits: /v0\.8\.\d+/,
  coldBuild: 'about 2 minutes',
  buildAhead: 'run `groundwork cluster up` once (it builds KWOK on first use)',
};
