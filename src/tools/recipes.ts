/**
 * The Go tools the product runs and builds from the module proxy when the machine lacks them
 * (`groundwork tools list|build`). Test-only tools (Gitea) have their recipes in `src/dev/tools`.
 */
export const TOOL_NAMES = ['helm', 'kustomize', 'sops'] as const;

/** One of `TOOL_NAMES`. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** How to find, check and build one tool. Plain data; `resolveTool` acts on it. */
export interface ToolRecipe {
  /** The binary's name, and the cache entry's (`<cache>/tools/<name>-<version>/`). */
  readonly name: string;
  /** The Go module that holds the tool, and the pinned release built when nothing fits. */
  readonly module: string;
  readonly version: string;
  /** The main package to build. */
  readonly pkg: string;
  /** The environment variable that names a binary to use instead (`GROUNDWORK_HELM`). */
  readonly envVar: string;
  /** A `GOTOOLCHAIN` the build needs when the tool's go.mod asks for a newer Go than the machine's. */
  readonly toolchain?: string;
  readonly cgo?: boolean;
  readonly tags?: readonly string[];
  /** `-X` settings that make the binary report its release. */
  readonly ldflags: readonly string[];
  /** Arguments that print the version, and the pattern of a version that fits (same major). */
  readonly versionArgs: readonly string[];
  readonly fits: RegExp;
  /** Whether `moduleDir` (the module's source) must be known: Gitea reads templates from it. */
  readonly needsModuleDir?: boolean;
  /** Roughly how long a cold build takes on 2 cores, for the progress line. */
  readonly coldBuild: string;
  /** How to build it ahead of time, for an error's fix. @default `groundwork tools build <name>` */
  readonly buildAhead?: string;
}

/**
 * The pinned tools. Versions are those the Go module proxy serves and that build here (checked
 * 2026-11-25): kustomize v5.8.3 needs a kube-openapi pseudo-version the proxy refuses, so v5.8.2.
 */
export const TOOL_RECIPES: Readonly<Record<ToolName, ToolRecipe>> = {
  helm: {
    name: 'helm',
    module: 'helm.sh/helm/v3',
    version: 'v3.22.0',
    pkg: 'helm.sh/helm/v3/cmd/helm',
    envVar: 'GROUNDWORK_HELM',
    ldflags: ['-X helm.sh/helm/v3/internal/version.version=v3.22.0'],
    versionArgs: ['version', '--template', '{{.Version}}'],
    fits: /^v3\.\d+\.\d+/,
    coldBuild: 'about 2 minutes',
  },
  kustomize: {
    name: 'kustomize',
    module: 'sigs.k8s.io/kustomize/kustomize/v5',
    version: 'v5.8.2',
    pkg: 'sigs.k8s.io/kustomize/kustomize/v5',
    envVar: 'GROUNDWORK_KUSTOMIZE',
    toolchain: 'go1.27.3',
    ldflags: ['-X sigs.k8s.io/kustomize/api/provenance.version=v5.8.2'],
    versionArgs: ['version'],
    fits: /v5\.\d+\.\d+/,
    coldBuild: 'about 2 minutes',
  },
  sops: {
    name: 'sops',
    module: 'github.com/getsops/sops/v3',
    version: 'v3.13.3',
    pkg: 'github.com/getsops/sops/v3/cmd/sops',
    envVar: 'GROUNDWORK_SOPS',
    ldflags: [],
    versionArgs: ['--version', '--disable-version-check'],
    fits: /sops 3\.\d+\.\d+/,
    coldBuild: 'about 2 minutes',
  },
};
