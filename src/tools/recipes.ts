/** The Go tools Groundwork builds from the module proxy when the machine lacks them. */
export const TOOL_NAMES = ['helm', 'kustomize', 'sops', 'gitea', 'registry'] as const;

/** One of `TOOL_NAMES`. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** How to find, check and build one tool. Plain data; `resolveTool` acts on it. */
export interface ToolRecipe {
  readonly name: ToolName;
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
}

/**
 * The pinned tools. Versions are those the Go module proxy serves and that build here (checked
 * 2026-11-25): kustomize v5.8.3 needs a kube-openapi pseudo-version the proxy refuses, so v5.8.2;
 * Gitea v1.27's go.mod moved to a module path the proxy refuses, so v1.26.0. The OCI registry
 * (distribution v3.1.2, the newest the proxy serves) is for tests only, like Gitea.
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
  gitea: {
    name: 'gitea',
    module: 'code.gitea.io/gitea',
    version: 'v1.26.0',
    pkg: 'code.gitea.io/gitea',
    envVar: 'GROUNDWORK_GITEA',
    cgo: true,
    tags: ['sqlite', 'sqlite_unlock_notify'],
    ldflags: ['-X main.Version=1.26.0'],
    versionArgs: ['--version'],
    fits: /version 1\.2[6-9]\./,
    needsModuleDir: true,
    coldBuild: 'about 5 minutes',
  },
  registry: {
    name: 'registry',
    module: 'github.com/distribution/distribution/v3',
    version: 'v3.1.2',
    pkg: 'github.com/distribution/distribution/v3/cmd/registry',
    envVar: 'GROUNDWORK_REGISTRY',
    ldflags: ['-X github.com/distribution/distribution/v3/version.version=v3.1.2'],
    // Prints `registry github.com/distribution/distribution/v3 v3.1.2`.
    versionArgs: ['--version'],
    fits: /distribution\/v3 v3\.\d+\.\d+/,
    coldBuild: 'about 3 minutes',
  },
};
