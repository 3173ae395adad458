/**
 * The `k8s.io/*` modules that a k8s.io/kubernetes go.mod requires at the placeholder
 * version `v0.0.0` (its staging repositories, resolved upstream by `replace => ./staging/...`).
 * Pseudo-versions such as `v0.0.0-2026…` are real versions and are not included.
 */
export function stagingModules(goMod: string): string[] {
  const found = new Set<string>();
  for (const m of goMod.matchAll(/^\s*(?:require\s+)?(k8s\.io\/[\w.\-/]+)\s+v0\.0\.0\s*(?:\/\/.*)?$/gm)) {
    found.add(m[1]!);
  }
  return [...found].sort();
}

/**
 * The throwaway go.mod that builds binaries from `k8s.io/kubernetes vX.Y.Z`: it requires
 * the release (and the `also` modules, `path version`, built from the same module) and replaces
 * every staging module with its published `v0.Y.Z` twin.
 */
export function kubernetesBuildGoMod(opts: {
  version: string;
  goVersion: string;
  staging: string[];
  also?: readonly string[];
}): string {
  const [, minor, patch] = opts.version.replace(/^v/, '').split('.');
  const stagingVersion = `v0.${minor}.${patch}`;
  const replaces = opts.staging.map((m) => `\t${m} => ${m} ${stagingVersion}`).join('\n');
  return [
    'module groundwork.local/controlplane-build',
    '',
    `go ${opts.goVersion}`,
    '',
    `require k8s.io/kubernetes ${opts.version}`,
    ...(opts.also ?? []).map((m) => `require ${m}`),
    '',
    `replace (\n${replaces}\n)`,
    '',
  ].join('\n');
}
