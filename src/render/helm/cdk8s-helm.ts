// cdk8s's `Helm`, as platform code gets it from `import { Helm } from 'cdk8s'` inside the synth
// bundle (bundle-plugins.ts `helmRecords`): the same props, recorded instead of rendered in place.
import type { Construct } from 'constructs';
import { Validation } from '../synth/validation.js';
import { HelmChart, type HelmChartProps } from './helm-chart.js';

/** cdk8s's `HelmProps` (cdk8s/lib/helm.d.ts). */
export interface Cdk8sHelmProps {
  readonly chart: string;
  readonly repo?: string;
  readonly version?: string;
  readonly namespace?: string;
  readonly releaseName?: string;
  readonly values?: Record<string, unknown>;
  readonly helmExecutable?: string;
  readonly helmFlags?: string[];
}

/** cdk8s's `Names`, handed in by the bundle's replacement of cdk8s/lib/helm.js. */
interface Cdk8sNames {
  toDnsLabel(scope: Construct, options?: { maxLen?: number; extra?: string[] }): string;
}

/**
 * What `helmFlags` say: `props`, from the flags of `helm template` that mean something without a
 * cluster; `sets`, the value paths of `--set`-style flags (values belong in `values`); `unknown`,
 * every other flag (its value, when helm's flag takes one, is consumed, never taken for a flag).
 */
type FlagResult = { props: Partial<Mutable<HelmChartProps>>; sets: string[]; unknown: string[] };
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `helm template`'s flags that set chart values on the command line (helm v3.22 `--help`). */
const SET_FLAGS = new Set(['--set', '--set-string', '--set-file', '--set-json', '--set-literal']);

/** The other `helm template` flags that take a value (helm v3.22 `--help`, global flags included). */
const VALUE_FLAGS = new Set([
  '--ca-file',
  '--cert-file',
  '--description',
  '--key-file',
  '--keyring',
  '-l',
  '--labels',
  '--name-template',
  '--output-dir',
  '--password',
  '--post-renderer',
  '--post-renderer-args',
  '--repo',
  '-s',
  '--show-only',
  '--timeout',
  '--username',
  '--burst-limit',
  '--qps',
  '--kube-apiserver',
  '--kube-as-group',
  '--kube-as-user',
  '--kube-ca-file',
  '--kube-context',
  '--kube-token',
  '--kubeconfig',
  '--registry-config',
  '--repository-cache',
  '--repository-config',
]);

/**
 * Reads cdk8s `helmFlags` into HelmChart props: `--include-crds`, `--skip-crds`, `--skip-tests`,
 * `--api-versions`/`-a`, `--kube-version`, `--values`/`-f`, `--namespace`/`-n`, `--version`
 * (`--flag value` and `--flag=value`). The paths `--set a.b=1` (and its kin) set are returned in
 * `sets` (never their values), any other flag in `unknown`, and a word that is no flag but the
 * value of one is consumed with it. Pure.
 */
export function readHelmFlags(flags: readonly string[]): FlagResult {
  const props: FlagResult['props'] = {};
  const sets: string[] = [];
  const unknown: string[] = [];
  const apiVersions: string[] = [];
  const valuesFiles: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const [flag, inline] = flags[i]!.includes('=') ? flags[i]!.split(/=(.*)/s, 2) : [flags[i]!, undefined];
    const value = () => inline ?? flags[++i] ?? '';
    switch (flag) {
      case '--include-crds':
        props.includeCrds = true;
        break;
      case '--skip-crds':
        props.includeCrds = false;
        break;
      case '--skip-tests':
        props.skipTests = true;
        break;
      case '--api-versions':
      case '-a':
        apiVersions.push(...value().split(','));
        break;
      case '--kube-version':
        props.kubeVersion = value();
        break;
      case '--values':
      case '-f':
        valuesFiles.push(...value().split(','));
        break;
      case '--namespace':
      case '-n':
        props.namespace = value();
        break;
      case '--version':
        props.version = value();
        break;
      default:
        if (SET_FLAGS.has(flag!))
          for (const assignment of splitSets(value())) {
            // A piece of a JSON value split at its commas is no `key=value`: skipped.
            const path = assignment.split('=', 1)[0]!.trim();
            if (assignment.includes('=') && /^[\w.\-[\]\\]+$/.test(path)) sets.push(path);
          }
        else if (VALUE_FLAGS.has(flag!)) {
          value();
          unknown.push(flag!);
        } else unknown.push(flag!);
    }
  }
  if (apiVersions.length > 0) props.apiVersions = apiVersions;
  if (valuesFiles.length > 0) props.valuesFiles = valuesFiles;
  return { props, sets: [...new Set(sets)], unknown };
}

/** `a=1,b.c=2` as helm splits `--set`: at commas not escaped with a backslash. */
function splitSets(text: string): string[] {
  return text.split(/(?<!\\),/).filter((s) => s.length > 0);
}

/**
 * Builds the bundle's `Helm` class over `Names` of the cdk8s copy in the bundle. Same props and
 * defaults as cdk8s's: the release name from the construct path, CRDs only with `--include-crds`,
 * test hooks kept unless `--skip-tests`, the chart relative to the repository root (the synth
 * child's working directory) or an `oci://` chart, `repo` a chart repository or an `oci://`
 * registry path (remote charts with an exact `version`, locked in groundwork-charts.lock.yaml). It differs in what it cannot do in the sandbox: `helmExecutable` is ignored (Groundwork's helm renders), and the rendered
 * objects are not there while platform code runs: `apiObjects` throws with the fix.
 */
export function defineCdk8sHelm(names: Cdk8sNames) {
  return class Helm extends HelmChart {
    constructor(scope: Construct, id: string, props: Cdk8sHelmProps) {
      const flags = readHelmFlags(props.helmFlags ?? []);
      const chart = props.chart.replace(/^\.\//, '');
      super(
        scope,
        id,
        {
          ...flags.props,
          chart,
          ...(props.repo ? { repo: props.repo } : {}),
          ...(props.version ? { version: props.version } : {}),
          ...(props.namespace ? { namespace: props.namespace } : {}),
          ...(props.releaseName ? { releaseName: props.releaseName } : {}),
          ...(props.values ? { values: props.values } : {}),
        },
        {
          releaseName: names.toDnsLabel(scope, { maxLen: 53, extra: [id] }),
          includeCrds: false,
          skipTests: false,
        },
      );
      for (const path of flags.sets)
        Validation.error(
          this,
          'helmFlags',
          `--set ${JSON.stringify(path.slice(0, 120))} sets a chart value on the helm command line, which Groundwork does not pass on`,
          `put it in values instead (${path.includes('.') ? 'nested: a.b is values: { a: { b: … } }' : `values: { ${JSON.stringify(path.slice(0, 120))}: … }`}), so the preview and the value errors see it`,
        );
      for (const flag of flags.unknown)
        Validation.error(
          this,
          'helmFlags',
          `${JSON.stringify(flag)} is not a helm template flag Groundwork passes on`,
          'use --include-crds, --skip-crds, --skip-tests, --api-versions, --kube-version, --values, --namespace or --version, or the HelmChart construct',
        );
    }

    /** cdk8s's `Include.apiObjects`: not available, the chart renders after platform code has run. */
    get apiObjects(): never {
      throw new Error(
        `${this.node.path}: the objects of a Helm chart are rendered after the platform code has run, outside its sandbox, so they cannot be read or changed here; set chart values instead (or render the chart into the repository and use Include)`,
      );
    }
  };
}
