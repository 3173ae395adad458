import { z } from 'zod';
import { GroundworkError } from '../../core/errors.js';
import {
  channelOf,
  readFbc,
  readFbcFiles,
  type FbcBundle,
  type FbcCatalog,
  type FbcChannel,
  type FbcFile,
  type FbcPackage,
} from './fbc.js';

/** A CustomResourceDefinition a CSV owns, as the OLM simulator installs it. */
export interface OwnedCRD {
  readonly group: string;
  readonly kind: string;
  /** Plural resource name; the CRD is named `<plural>.<group>`. */
  readonly plural: string;
  /** Served versions; the highest by Kubernetes version priority is the storage version. */
  readonly versions: readonly string[];
}

/**
 * What the OLM simulator serves from one CatalogSource: the catalog model (upgrade graph) plus the
 * CRDs each bundle owns, which the model does not carry. Keyed by CSV name.
 */
export interface SimulatorCatalog {
  readonly catalog: FbcCatalog;
  readonly ownedCRDs: ReadonlyMap<string, readonly OwnedCRD[]>;
}

/** One CSV of a synthetic package. */
interface SyntheticCSV {
  readonly name: string;
  readonly version: string;
  readonly replaces?: string;
  readonly skips?: readonly string[];
  readonly skipRange?: string;
  readonly ownedCRDs?: readonly OwnedCRD[];
}

/**
 * A package without an FBC file (e.g. `openshift-gitops-operator` owning `argocds.argoproj.io`):
 * one channel and its CSVs, with the same `replaces`/`skips`/`skipRange` edges as FBC entries.
 */
export interface SyntheticPackage {
  readonly package: string;
  readonly channel: string;
  /** @default the first channel given for the package */
  readonly defaultChannel?: string;
  readonly csvs: readonly SyntheticCSV[];
}

const ownedCrdSchema = z.object({
  group: z.string().min(1),
  kind: z.string().min(1),
  plural: z.string().min(1),
  versions: z.array(z.string().min(1)).min(1),
});

const syntheticSchema = z.array(
  z.object({
    package: z.string().min(1),
    channel: z.string().min(1),
    defaultChannel: z.string().min(1).optional(),
    csvs: z
      .array(
        z.object({
          name: z.string().min(1),
          version: z.string().min(1),
          replaces: z.string().min(1).optional(),
          skips: z.array(z.string().min(1)).optional(),
          skipRange: z.string().min(1).optional(),
          ownedCRDs: z.array(ownedCrdSchema).optional(),
        }),
      )
      .min(1),
  }),
);

/** Synthetic packages that do not validate; lists every problem with its path. */
class SyntheticCatalogInvalidError extends GroundworkError {
  constructor(problems: readonly string[]) {
    super({
      code: 'SyntheticCatalogInvalid',
      subject: 'synthetic packages',
      message: problems.join('; '),
      fix: 'give each package a name, a channel and CSVs with name and version',
    });
  }
}

/**
 * The plural OLM would find in the bundle's CRD manifest. FBC `olm.gvk` properties do not carry it:
 * taken from an `olm.bundle.object` CRD of the same group and kind when the bundle has one, else
 * the lowercase kind plus `s` (`ArgoCD` → `argocds`), which is what most operators use. Kinds with
 * irregular plurals need the CRD object in the catalog or a synthetic package.
 */
function defaultPlural(kind: string): string {
  return `${kind.toLowerCase()}s`;
}

/**
 * Reads FBC files into a `SimulatorCatalog` (see `readFbc`): the catalog and, per bundle, the CRDs
 * its `olm.gvk` properties name (grouped by group and kind; plural from a bundled CRD object, else
 * `defaultPlural`).
 *
 * @throws FbcUnreadableError from `readFbc`.
 * @example
 * const served = catalogFromFiles([{ path: 'index.yaml', text }]);
 * served.ownedCRDs.get('bar.v1.0.0'); // [{ group: 'test.bar', kind: 'Bar', plural: 'bars', versions: ['v1', 'v1alpha1'] }]
 */
export function catalogFromFiles(files: readonly FbcFile[]): SimulatorCatalog {
  const catalog = readFbc(files);
  const ownedCRDs = new Map<string, OwnedCRD[]>();
  for (const pkg of catalog.packages.values()) {
    for (const bundle of pkg.bundles.values()) ownedCRDs.set(bundle.name, ownedOf(bundle));
  }
  return { catalog, ownedCRDs };
}

function ownedOf(bundle: FbcBundle): OwnedCRD[] {
  const byKind = new Map<string, OwnedCRD>();
  for (const g of bundle.provides) {
    const key = `${g.group}/${g.kind}`;
    const seen = byKind.get(key);
    byKind.set(key, {
      group: g.group,
      kind: g.kind,
      plural: bundle.plurals.get(key) ?? defaultPlural(g.kind),
      versions: [...new Set([...(seen?.versions ?? []), g.version])],
    });
  }
  return [...byKind.values()];
}

/** Reads an FBC file or directory into a `SimulatorCatalog`. */
export async function loadSimulatorCatalog(path: string): Promise<SimulatorCatalog> {
  return catalogFromFiles(await readFbcFiles(path));
}

/**
 * Builds a catalog from synthetic packages; several entries for one package add channels to it.
 * The channel graph follows OLM's rules exactly as for FBC (`channelOf`).
 *
 * @throws SyntheticCatalogInvalidError listing every problem.
 * @example
 * syntheticCatalog([{ package: 'openshift-gitops-operator', channel: 'latest', csvs: [
 *   { name: 'openshift-gitops-operator.v1.12.0', version: '1.12.0',
 *     ownedCRDs: [{ group: 'argoproj.io', kind: 'ArgoCD', plural: 'argocds', versions: ['v1beta1'] }] } ] }]);
 */
export function syntheticCatalog(packages: readonly SyntheticPackage[]): SimulatorCatalog {
  const parsed = syntheticSchema.safeParse(packages);
  if (!parsed.success) {
    throw new SyntheticCatalogInvalidError(
      parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`),
    );
  }
  const pkgs = new Map<
    string,
    { defaultChannel: string; channels: Map<string, FbcChannel>; bundles: Map<string, FbcBundle> }
  >();
  const ownedCRDs = new Map<string, readonly OwnedCRD[]>();
  for (const p of parsed.data) {
    const pkg = pkgs.get(p.package) ?? {
      defaultChannel: p.defaultChannel ?? p.channel,
      channels: new Map<string, FbcChannel>(),
      bundles: new Map<string, FbcBundle>(),
    };
    pkgs.set(p.package, pkg);
    const entries = p.csvs.map((c) => ({
      name: c.name,
      ...(c.replaces === undefined ? {} : { replaces: c.replaces }),
      skips: c.skips ?? [],
      ...(c.skipRange === undefined ? {} : { skipRange: c.skipRange }),
    }));
    pkg.channels.set(p.channel, channelOf(p.channel, entries));
    for (const c of p.csvs) {
      const provides = (c.ownedCRDs ?? []).flatMap((o) =>
        o.versions.map((version) => ({ group: o.group, version, kind: o.kind })),
      );
      pkg.bundles.set(c.name, {
        name: c.name,
        package: p.package,
        version: c.version,
        image: undefined,
        provides,
        requires: [],
        plurals: new Map((c.ownedCRDs ?? []).map((o) => [`${o.group}/${o.kind}`, o.plural])),
      });
      ownedCRDs.set(c.name, c.ownedCRDs ?? []);
    }
  }
  const catalog: FbcCatalog = {
    packages: new Map(
      [...pkgs].map(([name, p]): [string, FbcPackage] => [
        name,
        { name, defaultChannel: p.defaultChannel, channels: p.channels, bundles: p.bundles },
      ]),
    ),
  };
  return { catalog, ownedCRDs };
}

/** A plain `FbcCatalog` (no owned CRDs known) or a `SimulatorCatalog`, as the simulator accepts them. */
export type CatalogInput = FbcCatalog | SimulatorCatalog;

export function toSimulatorCatalog(input: CatalogInput): SimulatorCatalog {
  return 'catalog' in input ? input : { catalog: input, ownedCRDs: new Map() };
}

/** Both catalogs' packages; a package in both is taken from `b`. */
export function mergeCatalogs(a: SimulatorCatalog, b: SimulatorCatalog): SimulatorCatalog {
  return {
    catalog: { packages: new Map([...a.catalog.packages, ...b.catalog.packages]) },
    ownedCRDs: new Map([...a.ownedCRDs, ...b.ownedCRDs]),
  };
}
