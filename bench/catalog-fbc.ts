// A synthetic file-based catalog (FBC) for the catalog benchmark, shaped like `opm render -o json`
// output of a real index: one olm.package, one olm.channel and one olm.bundle blob per bundle, each
// pretty-printed, back to back.

export interface FbcOptions {
  /** Channel entries (= bundles) in the whole catalog. */
  readonly entries: number;
  /** Bundles per package; the last package takes the remainder. @default 100 */
  readonly perPackage?: number;
}

/**
 * A JSON stream of `entries` bundles in packages of `perPackage`. Each package has a `stable`
 * channel listing every bundle (a `replaces` chain, every tenth entry also skipping the two before
 * it, a `skipRange` on each), and each bundle carries an `olm.package`, two `olm.gvk`, an
 * `olm.package.required` and related images, as real bundles do. Deterministic: the same options
 * give the same text.
 */
export function fbcJsonStream(options: FbcOptions): string {
  const perPackage = Math.max(1, options.perPackage ?? 100);
  const blobs: unknown[] = [];
  for (let start = 0, p = 0; start < options.entries; start += perPackage, p++) {
    const n = Math.min(perPackage, options.entries - start);
    blobs.push(...packageBlobs(`op-${p}`, p + 1, n));
  }
  return blobs.map((b) => JSON.stringify(b, null, 4)).join('\n') + '\n';
}

/** Package `pkg` with versions `<major>.<i>.0`: a major per package keeps every version and range
 * distinct across packages, as in a real index (node-semver caches ranges it has seen). */
function packageBlobs(pkg: string, major: number, n: number): unknown[] {
  const csv = (i: number) => `${pkg}.v${major}.${i}.0`;
  const entries = Array.from({ length: n }, (_, i) => ({
    name: csv(i),
    ...(i > 0 ? { replaces: csv(i - 1) } : {}),
    ...(i >= 3 && i % 10 === 0 ? { skips: [csv(i - 3), csv(i - 2)] } : {}),
    skipRange: `>=${major}.0.0 <${major}.${i}.0`,
  }));
  const bundles = Array.from({ length: n }, (_, i) => ({
    schema: 'olm.bundle',
    name: csv(i),
    package: pkg,
    image: `quay.io/example/${pkg}-bundle@sha256:${hex(`${pkg}${i}`)}`,
    properties: [
      { type: 'olm.gvk', value: { group: `${pkg}.example.com`, kind: 'Widget', version: 'v1' } },
      { type: 'olm.gvk', value: { group: `${pkg}.example.com`, kind: 'Gadget', version: 'v1beta1' } },
      { type: 'olm.package', value: { packageName: pkg, version: `${major}.${i}.0` } },
      { type: 'olm.package.required', value: { packageName: 'cert-manager', versionRange: '>=1.0.0' } },
    ],
    relatedImages: [
      { name: 'operator', image: `quay.io/example/${pkg}@sha256:${hex(`op${pkg}${i}`)}` },
      { name: '', image: `quay.io/example/${pkg}-bundle@sha256:${hex(`${pkg}${i}`)}` },
    ],
  }));
  return [
    { schema: 'olm.package', name: pkg, defaultChannel: 'stable', description: `The ${pkg} operator.` },
    { schema: 'olm.channel', package: pkg, name: 'stable', entries },
    ...bundles,
  ];
}

/** 64 hex digits derived from `seed` (a stand-in for an image digest; no crypto needed). */
function hex(seed: string): string {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(8);
}
